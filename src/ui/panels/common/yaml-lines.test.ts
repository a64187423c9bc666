import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { isPlainSafe, yamlLines, yamlText } from './yaml-lines.js';

const obj = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web', 'x.io/on': 'true' } },
  spec: {
    replicas: 2,
    template: {
      spec: {
        containers: [{ name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }], args: ['-v', '# x', ''] }],
      },
    },
  },
  data: { script: 'echo a\necho b\n', empty: {}, none: [], n: null, yes: 'yes', num: '0123' },
};

describe('yamlLines', () => {
  it('writes block YAML that reads back as the same value', () => {
    expect(load(yamlText(obj))).toEqual(obj);
  });
  it('maps every line to the field it shows', () => {
    const lines = yamlLines(obj);
    const at = (text: string) => lines.find((l) => l.text === text)!;
    expect(at('  replicas: 2').path).toEqual(['spec', 'replicas']);
    expect(at('        - name: app')).toEqual({
      text: '        - name: app',
      path: ['spec', 'template', 'spec', 'containers', 0, 'name'],
      itemPath: ['spec', 'template', 'spec', 'containers', 0],
    });
    expect(at('          image: nginx:1.25').path).toEqual(['spec', 'template', 'spec', 'containers', 0, 'image']);
    expect(at('            - "-v"')).toBeUndefined();
    expect(at('            - -v').path).toEqual(['spec', 'template', 'spec', 'containers', 0, 'args', 0]);
    expect(at('  script: |').path).toEqual(['data', 'script']);
    expect(at('    echo b').path).toEqual(['data', 'script']);
    expect(at('  "yes": "yes"').path).toEqual(['data', 'yes']);
  });
  it('quotes what plain style would change', () => {
    for (const s of ['true', 'null', '12', '1e3', '0x1f', '', ' a', 'a: b', 'a #b', '- x', '[x', '*a', 'k:']) expect(isPlainSafe(s)).toBe(false);
    for (const s of ['nginx:1.25', 'a#b', 'web', 'x.io/name', '-v', '2024-01-01T00:00:00Z']) expect(isPlainSafe(s)).toBe(true);
  });
});
