// PodTemplates (core v1): pod template defaulting and validation, the printer.

import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { templateWarnings } from '../common/template-warnings.js';
import { formatLabels } from '../common/labels.js';
import { defaultPodTemplate, validatePodTemplateSpec } from '../common/pod.js';
import { col, containerImages, containerNames, o } from '../common/printers.js';

export const podtemplates = builtin('', 'v1', 'podtemplates', {
  ...templateWarnings((obj) => obj.template, 'template'),
  default: (obj) => {
    obj.template = o(obj.template);
    defaultPodTemplate(obj.template);
  },
  validateObject: (obj) => validatePodTemplateSpec(obj.template, 'template'),
  tableColumns: [
    col('Containers', 'string', 'Names of each container in the template.', (obj) => containerNames(o(o(obj.template).spec).containers)),
    col('Images', 'string', 'Images referenced by each container in the template.', (obj) => containerImages(o(o(obj.template).spec).containers)),
    col('Pod Labels', 'string', 'The labels for the pod template.', (obj) => formatLabels(o(o(obj.template).metadata).labels)),
  ],
}) satisfies ResourceDefinition;
