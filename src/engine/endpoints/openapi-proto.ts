// /openapi/v2 in protobuf: the JSON document as the gnostic OpenAPIv2 `Document` message
// (github.com/google/gnostic-models openapiv2/OpenAPIv2.proto), which kube-openapi serves for
// `Accept: application/com.github.proto-openapi.spec.v2[.@]v1.0+protobuf` (ToProtoBinary: gnostic's
// ParseDocument of the JSON, then proto.Marshal). kubectl reads it for kind lookups and explain.
//
// proto3 rules (google.golang.org/protobuf Marshal): fields in number order; a string, bool, number at its
// zero value is left out; a message is written when present (even empty); a oneof member is written when
// chosen, even at its zero value. gnostic's mapping: `x-` members become NamedAny vendor extensions whose
// Any holds the value as YAML; `default`/`example`/`enum` values are Any too; `type` is a TypeItem list,
// `items` an ItemsItem list, `additionalProperties` a schema or a boolean; objects keyed by name
// (properties, definitions, paths, responses...) are lists of Named* pairs in the JSON's member order.

import { dump } from 'js-yaml';
import { ProtoWriter } from '../codec/protobuf/encode.js';

type Json = Record<string, unknown>;

const UTF8 = new TextEncoder();

/** The gnostic field kinds a message spec uses. */
type Kind =
  | 's' | 'b' | 'd' | 'l' | '[s]' | 'any' | '[any]'
  | { msg: string } | { list: string };

/** Message specs: JSON member -> [field number, kind]; `x` = field number of the vendor extensions. */
interface Spec {
  fields: Record<string, [number, Kind]>;
  x?: number;
}

const primitivesCommon = (base: number): Record<string, [number, Kind]> => ({
  type: [base, 's'], format: [base + 1, 's'], items: [base + 2, { msg: 'PrimitivesItems' }], collectionFormat: [base + 3, 's'],
  default: [base + 4, 'any'], maximum: [base + 5, 'd'], exclusiveMaximum: [base + 6, 'b'], minimum: [base + 7, 'd'],
  exclusiveMinimum: [base + 8, 'b'], maxLength: [base + 9, 'l'], minLength: [base + 10, 'l'], pattern: [base + 11, 's'],
  maxItems: [base + 12, 'l'], minItems: [base + 13, 'l'], uniqueItems: [base + 14, 'b'], enum: [base + 15, '[any]'],
  multipleOf: [base + 16, 'd'],
});

const SPECS: Record<string, Spec> = {
  Document: {
    fields: {
      swagger: [1, 's'], info: [2, { msg: 'Info' }], host: [3, 's'], basePath: [4, 's'], schemes: [5, '[s]'],
      consumes: [6, '[s]'], produces: [7, '[s]'], paths: [8, { msg: 'Paths' }], definitions: [9, { msg: 'Definitions' }],
      parameters: [10, { msg: 'ParameterDefinitions' }], responses: [11, { msg: 'ResponseDefinitions' }],
      security: [12, { list: 'SecurityRequirement' }], securityDefinitions: [13, { msg: 'SecurityDefinitions' }],
      tags: [14, { list: 'Tag' }], externalDocs: [15, { msg: 'ExternalDocs' }],
    },
    x: 16,
  },
  Info: { fields: { title: [1, 's'], version: [2, 's'], description: [3, 's'], termsOfService: [4, 's'], contact: [5, { msg: 'Contact' }], license: [6, { msg: 'License' }] }, x: 7 },
  Contact: { fields: { name: [1, 's'], url: [2, 's'], email: [3, 's'] }, x: 4 },
  License: { fields: { name: [1, 's'], url: [2, 's'] }, x: 3 },
  ExternalDocs: { fields: { description: [1, 's'], url: [2, 's'] }, x: 3 },
  Tag: { fields: { name: [1, 's'], description: [2, 's'], externalDocs: [3, { msg: 'ExternalDocs' }] }, x: 4 },
  PathItem: {
    fields: {
      $ref: [1, 's'], get: [2, { msg: 'Operation' }], put: [3, { msg: 'Operation' }], post: [4, { msg: 'Operation' }],
      delete: [5, { msg: 'Operation' }], options: [6, { msg: 'Operation' }], head: [7, { msg: 'Operation' }],
      patch: [8, { msg: 'Operation' }], parameters: [9, { list: 'ParametersItem' }],
    },
    x: 10,
  },
  Operation: {
    fields: {
      tags: [1, '[s]'], summary: [2, 's'], description: [3, 's'], externalDocs: [4, { msg: 'ExternalDocs' }],
      operationId: [5, 's'], produces: [6, '[s]'], consumes: [7, '[s]'], parameters: [8, { list: 'ParametersItem' }],
      responses: [9, { msg: 'Responses' }], schemes: [10, '[s]'], deprecated: [11, 'b'], security: [12, { list: 'SecurityRequirement' }],
    },
    x: 13,
  },
  BodyParameter: { fields: { description: [1, 's'], name: [2, 's'], in: [3, 's'], required: [4, 'b'], schema: [5, { msg: 'Schema' }] }, x: 6 },
  HeaderParameterSubSchema: { fields: { required: [1, 'b'], in: [2, 's'], description: [3, 's'], name: [4, 's'], ...primitivesCommon(5) }, x: 22 },
  PathParameterSubSchema: { fields: { required: [1, 'b'], in: [2, 's'], description: [3, 's'], name: [4, 's'], ...primitivesCommon(5) }, x: 22 },
  QueryParameterSubSchema: { fields: { required: [1, 'b'], in: [2, 's'], description: [3, 's'], name: [4, 's'], allowEmptyValue: [5, 'b'], ...primitivesCommon(6) }, x: 23 },
  FormDataParameterSubSchema: { fields: { required: [1, 'b'], in: [2, 's'], description: [3, 's'], name: [4, 's'], allowEmptyValue: [5, 'b'], ...primitivesCommon(6) }, x: 23 },
  PrimitivesItems: { fields: primitivesCommon(1), x: 18 },
  Header: { fields: { ...primitivesCommon(1), description: [18, 's'] }, x: 19 },
  JsonReference: { fields: { $ref: [1, 's'], description: [2, 's'] } },
  Response: { fields: { description: [1, 's'], schema: [2, { msg: 'SchemaItem' }], headers: [3, { msg: 'Headers' }], examples: [4, { msg: 'Examples' }] }, x: 5 },
  Schema: {
    fields: {
      $ref: [1, 's'], format: [2, 's'], title: [3, 's'], description: [4, 's'], default: [5, 'any'], multipleOf: [6, 'd'],
      maximum: [7, 'd'], exclusiveMaximum: [8, 'b'], minimum: [9, 'd'], exclusiveMinimum: [10, 'b'], maxLength: [11, 'l'],
      minLength: [12, 'l'], pattern: [13, 's'], maxItems: [14, 'l'], minItems: [15, 'l'], uniqueItems: [16, 'b'],
      maxProperties: [17, 'l'], minProperties: [18, 'l'], required: [19, '[s]'], enum: [20, '[any]'],
      additionalProperties: [21, { msg: 'AdditionalPropertiesItem' }], type: [22, { msg: 'TypeItem' }], items: [23, { msg: 'ItemsItem' }],
      allOf: [24, { list: 'Schema' }], properties: [25, { msg: 'Properties' }], discriminator: [26, 's'], readOnly: [27, 'b'],
      xml: [28, { msg: 'Xml' }], externalDocs: [29, { msg: 'ExternalDocs' }], example: [30, 'any'],
    },
    x: 31,
  },
  FileSchema: {
    fields: {
      format: [1, 's'], title: [2, 's'], description: [3, 's'], default: [4, 'any'], required: [5, '[s]'], type: [6, 's'],
      readOnly: [7, 'b'], externalDocs: [8, { msg: 'ExternalDocs' }], example: [9, 'any'],
    },
    x: 10,
  },
  Xml: { fields: { name: [1, 's'], namespace: [2, 's'], prefix: [3, 's'], attribute: [4, 'b'], wrapped: [5, 'b'] }, x: 6 },
  ApiKeySecurity: { fields: { type: [1, 's'], name: [2, 's'], in: [3, 's'], description: [4, 's'] }, x: 5 },
  BasicAuthenticationSecurity: { fields: { type: [1, 's'], description: [2, 's'] }, x: 3 },
  Oauth2ImplicitSecurity: { fields: { type: [1, 's'], flow: [2, 's'], scopes: [3, { msg: 'Oauth2Scopes' }], authorizationUrl: [4, 's'], description: [5, 's'] }, x: 6 },
  Oauth2PasswordSecurity: { fields: { type: [1, 's'], flow: [2, 's'], scopes: [3, { msg: 'Oauth2Scopes' }], tokenUrl: [4, 's'], description: [5, 's'] }, x: 6 },
  Oauth2ApplicationSecurity: { fields: { type: [1, 's'], flow: [2, 's'], scopes: [3, { msg: 'Oauth2Scopes' }], tokenUrl: [4, 's'], description: [5, 's'] }, x: 6 },
  Oauth2AccessCodeSecurity: { fields: { type: [1, 's'], flow: [2, 's'], scopes: [3, { msg: 'Oauth2Scopes' }], authorizationUrl: [4, 's'], tokenUrl: [5, 's'], description: [6, 's'] }, x: 7 },
};

/** Objects keyed by name: the message holds `repeated Named<T> additional_properties = 1`. */
const NAMED: Record<string, string> = {
  Definitions: 'Schema', Properties: 'Schema', ParameterDefinitions: 'Parameter', ResponseDefinitions: 'Response',
  SecurityDefinitions: 'SecurityDefinitionsItem', Headers: 'Header', Examples: 'any', Oauth2Scopes: 's',
  SecurityRequirement: '[s]', Default: 'any',
};

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An Any: the value as YAML (gnostic marshals the YAML node). */
function writeAny(w: ProtoWriter, num: number, v: unknown): void {
  w.nested(num, () => {
    const yaml = dump(v, { lineWidth: -1, noRefs: true });
    if (yaml) w.bytesField(2, UTF8.encode(yaml));
  });
}

function writeString(w: ProtoWriter, num: number, v: unknown): void {
  if (typeof v === 'string' && v !== '') w.bytesField(num, UTF8.encode(v));
}

function writeKind(w: ProtoWriter, num: number, kind: Kind, v: unknown): void {
  if (v === undefined) return;
  if (typeof kind === 'object') {
    if ('list' in kind) {
      if (Array.isArray(v)) for (const x of v) w.nested(num, () => writeMessage(w, kind.list, x));
      return;
    }
    w.nested(num, () => writeMessage(w, kind.msg, v));
    return;
  }
  switch (kind) {
    case 's': return writeString(w, num, v);
    case 'b':
      if (v === true) {
        w.tag(num, 0);
        w.byte(1);
      }
      return;
    case 'l':
      if (typeof v === 'number' && v !== 0) {
        w.tag(num, 0);
        w.varint(Math.trunc(v));
      }
      return;
    case 'd':
      if (typeof v === 'number' && v !== 0) {
        w.tag(num, 1);
        const b = new DataView(new ArrayBuffer(8));
        b.setFloat64(0, v, true);
        w.raw(new Uint8Array(b.buffer));
      }
      return;
    case '[s]':
      if (Array.isArray(v)) for (const x of v) w.bytesField(num, UTF8.encode(String(x)));
      return;
    case 'any':
      return writeAny(w, num, v);
    case '[any]':
      if (Array.isArray(v)) for (const x of v) writeAny(w, num, x);
  }
}

function writeVendorExtensions(w: ProtoWriter, num: number, obj: Json): void {
  for (const [k, v] of Object.entries(obj)) {
    if (!k.startsWith('x-')) continue;
    w.nested(num, () => {
      writeString(w, 1, k);
      writeAny(w, 2, v);
    });
  }
}

function writeSpec(w: ProtoWriter, spec: Spec, obj: Json): void {
  const entries = Object.entries(spec.fields).sort((a, b) => a[1][0] - b[1][0]);
  let xDone = spec.x === undefined;
  for (const [key, [num, kind]] of entries) {
    if (!xDone && spec.x! < num) {
      writeVendorExtensions(w, spec.x!, obj);
      xDone = true;
    }
    writeKind(w, num, kind, obj[key]);
  }
  if (!xDone) writeVendorExtensions(w, spec.x!, obj);
}

function writeNamedValue(w: ProtoWriter, valueType: string, v: unknown): void {
  if (valueType === 's') return writeString(w, 2, v);
  if (valueType === 'any') return writeAny(w, 2, v);
  if (valueType === '[s]') {
    w.nested(2, () => writeKind(w, 1, '[s]', v));
    return;
  }
  w.nested(2, () => writeMessage(w, valueType, v));
}

function writeMessage(w: ProtoWriter, name: string, v: unknown): void {
  const named = NAMED[name];
  if (named !== undefined) {
    if (!isObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      w.nested(1, () => {
        writeString(w, 1, k);
        writeNamedValue(w, named, x);
      });
    }
    return;
  }
  switch (name) {
    case 'Paths': {
      if (!isObject(v)) return;
      writeVendorExtensions(w, 1, v);
      for (const [k, x] of Object.entries(v)) {
        if (!k.startsWith('/')) continue;
        w.nested(2, () => {
          writeString(w, 1, k);
          w.nested(2, () => writeMessage(w, 'PathItem', x));
        });
      }
      return;
    }
    case 'Responses': {
      if (!isObject(v)) return;
      for (const [k, x] of Object.entries(v)) {
        if (k.startsWith('x-')) continue;
        w.nested(1, () => {
          writeString(w, 1, k);
          w.nested(2, () => writeMessage(w, 'ResponseValue', x));
        });
      }
      writeVendorExtensions(w, 2, v);
      return;
    }
    case 'ResponseValue':
      if (isObject(v) && typeof v.$ref === 'string') w.nested(2, () => writeMessage(w, 'JsonReference', v));
      else w.nested(1, () => writeMessage(w, 'Response', v));
      return;
    case 'SchemaItem':
      if (isObject(v) && v.type === 'file') w.nested(2, () => writeMessage(w, 'FileSchema', v));
      else w.nested(1, () => writeMessage(w, 'Schema', v));
      return;
    case 'ParametersItem':
      if (isObject(v) && typeof v.$ref === 'string') w.nested(2, () => writeMessage(w, 'JsonReference', v));
      else w.nested(1, () => writeMessage(w, 'Parameter', v));
      return;
    case 'Parameter': {
      const p = isObject(v) ? v : {};
      if (p.in === 'body') {
        w.nested(1, () => writeMessage(w, 'BodyParameter', p));
        return;
      }
      const sub = ({ header: [1, 'HeaderParameterSubSchema'], formData: [2, 'FormDataParameterSubSchema'], query: [3, 'QueryParameterSubSchema'], path: [4, 'PathParameterSubSchema'] } as Record<string, [number, string]>)[String(p.in)];
      if (sub) w.nested(2, () => w.nested(sub[0], () => writeMessage(w, sub[1], p)));
      return;
    }
    case 'SecurityDefinitionsItem': {
      const s = isObject(v) ? v : {};
      let sub: [number, string] | undefined;
      if (s.type === 'basic') sub = [1, 'BasicAuthenticationSecurity'];
      else if (s.type === 'apiKey') sub = [2, 'ApiKeySecurity'];
      else if (s.type === 'oauth2') {
        sub = ({ implicit: [3, 'Oauth2ImplicitSecurity'], password: [4, 'Oauth2PasswordSecurity'], application: [5, 'Oauth2ApplicationSecurity'], accessCode: [6, 'Oauth2AccessCodeSecurity'] } as Record<string, [number, string]>)[String(s.flow)];
      }
      if (sub) w.nested(sub[0], () => writeMessage(w, sub![1], s));
      return;
    }
    case 'AdditionalPropertiesItem':
      if (typeof v === 'boolean') {
        w.tag(2, 0);
        w.byte(v ? 1 : 0);
      } else w.nested(1, () => writeMessage(w, 'Schema', v));
      return;
    case 'TypeItem':
      for (const t of Array.isArray(v) ? v : [v]) w.bytesField(1, UTF8.encode(String(t)));
      return;
    case 'ItemsItem':
      for (const s of Array.isArray(v) ? v : [v]) w.nested(1, () => writeMessage(w, 'Schema', s));
      return;
  }
  const spec = SPECS[name];
  if (!spec) throw new Error(`openapi proto: no spec for ${name}`);
  writeSpec(w, spec, isObject(v) ? v : {});
}

/** The OpenAPI v2 document as gnostic's protobuf Document. */
export function encodeOpenAPIV2Proto(doc: Json): Uint8Array {
  const w = new ProtoWriter();
  writeMessage(w, 'Document', doc);
  return w.result();
}

/** The protobuf media types kube-openapi serves /openapi/v2 under (the first is the older spelling). */
export const OPENAPI_V2_PROTO_SUBTYPES = ['com.github.proto-openapi.spec.v2@v1.0+protobuf', 'com.github.proto-openapi.spec.v2.v1.0+protobuf'];
export const OPENAPI_V2_PROTO_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
