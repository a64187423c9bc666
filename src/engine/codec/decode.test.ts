import { describe, expect, it } from 'vitest';
import { decodeBody, splitYamlDocuments, encodeYaml, summarizeData, yamlUnmarshalErrors } from './decode.js';
import { parseJson, JSON_MAX_DEPTH } from './json.js';
import { MAX_NESTING_DEPTH } from './budgets.js';
import { StatusError } from '../errors.js';

function err(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('JSON syntax errors: Go encoding/json texts', () => {
  const cases: [string, string][] = [
    ['{"a":1,}', `invalid character '}' looking for beginning of object key string`],
    ['{"a" 1}', `invalid character '1' after object key`],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', `invalid character '2' after array element`],
    ['[1,]', `invalid character ']' looking for beginning of value`],
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['{"a":"x', 'unexpected end of JSON input'],
    ['x', `invalid character 'x' looking for beginning of value`],
    ['01', `invalid character '1' after top-level value`],
    ['{} {}', `invalid character '{' after top-level value`],
    ['{"a":tru}', `invalid character '}' in literal true (expecting 'e')`],
    ['{"a":nul}', `invalid character '}' in literal null (expecting 'l')`],
    ['{"a":fals}', `invalid character '}' in literal false (expecting 'e')`],
    ['{"a":-}', `invalid character '}' in numeric literal`],
    ['{"a":1.}', `invalid character '}' after decimal point in numeric literal`],
    ['{"a":1e}', `invalid character '}' in exponent of numeric literal`],
    ['{"a":1e+}', `invalid character '}' in exponent of numeric literal`],
    ['"\\x"', `invalid character 'x' in string escape code`],
    ['"\\u12g4"', `invalid character 'g' in \\u hexadecimal character escape`],
    ['{"a":"\u0001"}', `invalid character '\\x01' in string literal`],
    ['{"a":"\t"}', `invalid character '\\t' in string literal`],
    ["{'a':1}", `invalid character '\\'' looking for beginning of object key string`],
    ['\ufeff{}', `invalid character 'ï' looking for beginning of value`],
    ['{"é":1,é}', `invalid character 'Ã' looking for beginning of object key string`],
    ['{"a":.5}', `invalid character '.' looking for beginning of value`],
    ['{"a":+1}', `invalid character '+' looking for beginning of value`],
  ];
  for (const [input, msg] of cases) {
    it(JSON.stringify(input), () => {
      expect(() => parseJson(input)).toThrow(msg);
      const e = err(() => decodeBody(input, 'json'));
      expect(e.status.code).toBe(400);
      expect(e.status.reason).toBe('BadRequest');
      expect(e.status.message).toBe(`couldn't get version/kind; json parse error: ${msg}`);
    });
  }
  it('create/update wording with the expected kind and a body summary', () => {
    expect(err(() => decodeBody('{"apiVersion":"v1","kind":"ConfigMap","data":{"a":}}', 'json', { expectKind: 'ConfigMap' })).status.message).toBe(
      `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value ({"apiVersion":"v1","kind":"Con ...)`,
    );
    expect(err(() => decodeBody(new TextEncoder().encode('[1 2]'), 'json', { expectKind: 'Pod' })).status.message).toBe(
      `the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character '2' after array element (5b3120325d)`,
    );
    expect(err(() => decodeBody('', 'json', { expectKind: 'Pod' })).status.message).toBe(
      `the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)`,
    );
  });
  it('apiVersion/kind of the wrong type, or not an object', () => {
    expect(err(() => decodeBody('{"kind":1}', 'json', { interpretKind: true })).message).toBe(
      `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string`,
    );
    expect(err(() => decodeBody('{"apiVersion":{}}', 'json', { interpretKind: true })).message).toBe(
      `couldn't get version/kind; json parse error: json: cannot unmarshal object into Go struct field .apiVersion of type string`,
    );
    expect(err(() => decodeBody('[]', 'json', { expectKind: 'Pod' })).message).toMatch(/^the object provided is unrecognized \(must be of type Pod\): couldn't get version\/kind; json parse error: json: cannot unmarshal array/);
    expect(err(() => decodeBody('[]', 'json', { interpretKind: true })).message).toBe(
      `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
    expect(err(() => decodeBody('{"apiVersion":"a/b/c"}', 'json', { interpretKind: true })).message).toBe('unexpected GroupVersion string: a/b/c');
    expect(decodeBody('null', 'json', { interpretKind: true }).value).toBe(null);
    // without expectKind the kind checks are off, so patch documents decode
    expect(decodeBody('[{"op":"add"}]', 'json').value).toEqual([{ op: 'add' }]);
  });
  it('nesting: the parser takes Go\'s limit (10000 levels accepted, 10001 rejected)', () => {
    const ok = '['.repeat(10000) + ']'.repeat(10000);
    expect(() => parseJson(ok, { maxDepth: JSON_MAX_DEPTH })).not.toThrow();
    const deep = '['.repeat(10001) + ']'.repeat(10001);
    expect(() => parseJson(deep, { maxDepth: JSON_MAX_DEPTH })).toThrow(`invalid character '[' exceeded max depth`);
  });

  it('nesting: request bodies are held to the body budget (MAX_NESTING_DEPTH levels), in Go\'s words', () => {
    const ok = '['.repeat(MAX_NESTING_DEPTH) + ']'.repeat(MAX_NESTING_DEPTH);
    expect(() => parseJson(ok)).not.toThrow();
    expect(decodeBody(`{"a":${'['.repeat(MAX_NESTING_DEPTH - 1)}${']'.repeat(MAX_NESTING_DEPTH - 1)}}`, 'json').value).toBeTruthy();
    const deep = '['.repeat(MAX_NESTING_DEPTH + 1) + ']'.repeat(MAX_NESTING_DEPTH + 1);
    expect(() => parseJson(deep)).toThrow(`invalid character '[' exceeded max depth`);
    expect(err(() => decodeBody(`{"a":${deep}}`, 'json')).status.message).toBe(`couldn't get version/kind; json parse error: invalid character '[' exceeded max depth`);
    const veryDeep = '{"a":'.repeat(200000) + '1' + '}'.repeat(200000);
    expect(err(() => decodeBody(veryDeep, 'json')).status.message).toBe(`couldn't get version/kind; json parse error: invalid character '{' exceeded max depth`);
  });
});

describe('JSON values', () => {
  it('duplicates: paths as the strict decoder prints them, deduped, document order', () => {
    const r = decodeBody('{"metadata":{"name":"a","name":"b","name":"c"},"spec":{"containers":[{"image":"x","image":"y"}],"list":[[{"k":1,"k":2}]]}}', 'json');
    expect(r.duplicates).toEqual(['metadata.name', 'spec.containers[0].image', 'spec.list[0][0].k']);
    expect(r.duplicateMessages).toEqual(['duplicate field "metadata.name"', 'duplicate field "spec.containers[0].image"', 'duplicate field "spec.list[0][0].k"']);
    expect(r.value).toEqual({ metadata: { name: 'c' }, spec: { containers: [{ image: 'y' }], list: [[{ k: 2 }]] } });
  });
  it('duplicates in a top-level array (json patch ops)', () => {
    expect(parseJson('[{"op":"add","path":"/a","path":"/b"}]').duplicates).toEqual(['[0].path']);
  });
  it('key order of the first occurrence is kept, last value wins', () => {
    expect(Object.keys(parseJson('{"b":1,"a":2,"b":3}').value as object)).toEqual(['b', 'a']);
  });
  it('__proto__ is an ordinary key', () => {
    const v = parseJson('{"__proto__":{"polluted":true},"a":1}').value as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });
  it('numbers: integers exact within 2^53, floats marked', () => {
    const r = parseJson('{"i":9007199254740991,"n":-0,"f":1.0,"e":1e3,"g":2.5,"l":[0.5]}');
    expect(r.value).toEqual({ i: 9007199254740991, n: 0, f: 1, e: 1000, g: 2.5, l: [0.5] });
    expect(r.nonIntegerNumbers).toEqual(['f', 'e', 'g', 'l[0]']);
  });
  it('numbers out of float64 range are refused like Go', () => {
    expect(err(() => decodeBody('{"a":1e400}', 'json')).message).toBe('json: cannot unmarshal number 1e400 into Go value of type float64');
    expect(err(() => decodeBody(`{"a":${'9'.repeat(400)}}`, 'json')).status.code).toBe(400);
  });
  it('strings: escapes and surrogates like Go', () => {
    expect(parseJson('"a\\n\\t\\"\\\\\\/\\u00e9\\ud83d\\ude00"').value).toBe('a\n\t"\\/é😀');
    expect(parseJson('"\\ud800x"').value).toBe('\ufffdx');
    expect(parseJson('"\\udc00"').value).toBe('\ufffd');
  });
  it('many keys and long arrays', () => {
    const n = 200000;
    const text = '{' + Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',') + '}';
    const v = parseJson(text).value as Record<string, number>;
    expect(Object.keys(v).length).toBe(n);
    expect(v.k199999).toBe(199999);
  });
  it('bytes with a UTF-8 body', () => {
    expect(decodeBody(new TextEncoder().encode('{"a":"é"}'), 'json').value).toEqual({ a: 'é' });
  });
});

describe('YAML decoding like sigs.k8s.io/yaml (go-yaml v2)', () => {
  const scalars: [string, unknown][] = [
    ['a: yes', true], ['a: No', false], ['a: on', true], ['a: OFF', false], ['a: y', true], ['a: n', false],
    ['a: true', true], ['a: ~', null], ['a:', null], ['a: null', null], ['a: 0777', 511], ['a: 0x1F', 31],
    ['a: 0o17', 15], ['a: 0b101', 5], ['a: 1_000', 1000], ['a: +12', 12], ['a: -3', -3], ['a: 08', 8],
    ['a: 1.5', 1.5], ['a: 1.0', 1], ['a: .5', 0.5], ['a: 1e3', 1000], ['a: 2001-12-14', '2001-12-14'],
    ['a: "yes"', 'yes'], ["a: '1'", '1'], ['a: !!str 1', '1'], ['a: 1.2.3', '1.2.3'], ['a: 12Mi', '12Mi'],
    ['a: |\n  x\n  y\n', 'x\ny\n'], ['a: 1e400', '1e400'], ['a: .5e999', '.5e999'], ['a: >-\n  x\n  y\n', 'x y'], ['a: 9223372036854775807', 9223372036854775807],
  ];
  for (const [src, want] of scalars) {
    it(JSON.stringify(src), () => {
      expect((decodeBody(src, 'yaml').value as { a: unknown }).a).toEqual(want);
    });
  }
  it('non-string keys become strings', () => {
    expect(decodeBody('1: a\ntrue: b\nyes: c\n1.5: d', 'yaml').value).toEqual({ 1: 'a', true: 'c', '1.5': 'd' });
  });
  it('duplicates: go-yaml strict messages, last value wins', () => {
    const r = decodeBody('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n"a": 4\n', 'yaml');
    expect(r.value).toEqual({ a: 4, b: { c: 2 } });
    expect(r.duplicateMessages).toEqual(['line 4: key "c" already set in map', 'line 5: key "a" already set in map', 'line 6: key "a" already set in map']);
    expect(r.duplicates).toEqual(['b.c', 'a', 'a']);
    expect(yamlUnmarshalErrors(r.duplicateMessages)).toBe('yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "a" already set in map\n  line 6: key "a" already set in map');
  });
  it('the line is that of the value node', () => {
    expect(decodeBody('a: 1\na:\n  b: 2\n', 'yaml').duplicateMessages).toEqual(['line 3: key "a" already set in map']);
    expect(decodeBody('l:\n- x: 1\n  x: 2\n', 'yaml').duplicates).toEqual(['l[0].x']);
  });
  it('anchors, aliases (copied), merge keys', () => {
    const r = decodeBody('base: &b {x: 1, z: 2}\nd:\n  <<: *b\n  w: 3\nl: &l [1, 2]\nm: *l\n', 'yaml');
    const v = r.value as any;
    expect(v).toEqual({ base: { x: 1, z: 2 }, d: { x: 1, z: 2, w: 3 }, l: [1, 2], m: [1, 2] });
    expect(v.m).not.toBe(v.l);
  });
  it('billion laughs is refused', () => {
    let y = 'a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]\n';
    for (let i = 1; i < 9; i++) y += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]\n`;
    expect(err(() => decodeBody(y, 'yaml')).message).toBe('yaml: document contains excessive aliasing');
  });
  it('errors', () => {
    expect(err(() => decodeBody('a: b: c', 'yaml', { expectKind: 'ConfigMap' })).message).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): yaml: mapping values are not allowed in this context (613a20623a2063)',
    );
    expect(err(() => decodeBody('a: *nope', 'yaml')).message).toBe("yaml: unknown anchor 'nope' referenced");
    expect(err(() => decodeBody('[a, 1]: c', 'yaml')).message).toBe('yaml: invalid map key: []interface {}{"a", 1}');
    expect(err(() => decodeBody('a: .inf', 'yaml')).message).toBe('json: unsupported value: +Inf');
    expect(err(() => decodeBody('- a', 'yaml', { interpretKind: true })).message).toMatch(/^couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/);
    expect(err(() => decodeBody('a:\n  b: [1\n', 'yaml')).message).toMatch(/^yaml: line \d+: /);
  });
  const syntax: [string, string][] = [
    ['a: b: c', 'yaml: mapping values are not allowed in this context'],
    ['x: 1\na: b: c', 'yaml: line 2: mapping values are not allowed in this context'],
    ['a: b\n  c: d', 'yaml: line 2: mapping values are not allowed in this context'],
    ['a:\n  b: 1\n c: 2', 'yaml: line 2: did not find expected key'],
    ['a: [1, 2', "yaml: did not find expected ',' or ']'"],
    ['a: {b: 1', "yaml: did not find expected ',' or '}'"],
    ['x: 1\na: \'x', 'yaml: line 2: found unexpected end of stream'],
    ['a:\n\tb: 1', 'yaml: line 2: found character that cannot start any token'],
    ['a: @x', 'yaml: found character that cannot start any token'],
  ];
  for (const [src, msg] of syntax) {
    it(`syntax error ${JSON.stringify(src)} in go-yaml words`, () => {
      expect(err(() => decodeBody(src, 'yaml')).message).toBe(msg);
    });
  }
  it('deep nesting is a 400, not a crash', () => {
    const e = err(() => decodeBody('a: ' + '['.repeat(5000) + ']'.repeat(5000), 'yaml'));
    expect(e.status.code).toBe(400);
    expect(e.message).toBe('yaml: exceeded max depth of 1000');
  });
  it('only the first document of a stream; empty is null', () => {
    expect(decodeBody('a: 1\n---\nb: 2\n', 'yaml').value).toEqual({ a: 1 });
    expect(decodeBody('', 'yaml').value).toBe(null);
  });
});

describe('splitYamlDocuments', () => {
  it('splits and skips empty documents', () => {
    expect(splitYamlDocuments('a: 1\n---\n---\nb: 2\n...\n---\n- x\n')).toEqual([{ a: 1 }, { b: 2 }, ['x']]);
    expect(splitYamlDocuments('')).toEqual([]);
  });
  it('malformed is a 400', () => {
    expect(err(() => splitYamlDocuments('a: b: c')).status.code).toBe(400);
  });
});

describe('summarizeData', () => {
  it('matches handlers/rest.go', () => {
    expect(summarizeData('')).toBe('<empty>');
    expect(summarizeData('{"a":1}')).toBe('{"a":1}');
    expect(summarizeData('{' + 'x'.repeat(40))).toBe('{' + 'x'.repeat(29) + ' ...');
    expect(summarizeData('ab')).toBe('6162');
  });
});

describe('encodeYaml like the real server', () => {
  it('a ConfigMap', () => {
    expect(encodeYaml({
      kind: 'ConfigMap', apiVersion: 'v1',
      metadata: { name: 'x', namespace: 'default', creationTimestamp: '2024-01-01T00:00:00Z', resourceVersion: '12', labels: { a10: 'yes', a9: 'true', b: '1' } },
      data: { 'game.properties': 'enemies=aliens\nlives=3\n', one: 'line', empty: '', star: '*x', colon: 'a: b', n: 'n' },
    })).toBe(`apiVersion: v1
data:
  colon: 'a: b'
  empty: ""
  game.properties: |
    enemies=aliens
    lives=3
  "n": "n"
  one: line
  star: '*x'
kind: ConfigMap
metadata:
  creationTimestamp: "2024-01-01T00:00:00Z"
  labels:
    a9: "true"
    a10: "yes"
    b: "1"
  name: x
  namespace: default
  resourceVersion: "12"
`);
  });
  it('sequences, nesting, empty collections, numbers, null', () => {
    expect(encodeYaml({ spec: { containers: [{ name: 'a', ports: [{ containerPort: 80 }], args: [] }], x: 1.5, y: null, z: {}, nested: [[1, 2], 'x'] } })).toBe(`spec:
  containers:
  - args: []
    name: a
    ports:
    - containerPort: 80
  nested:
  - - 1
    - 2
  - x
  x: 1.5
  "y": null
  z: {}
`);
  });
  it('literal block chomping and multi-line special cases', () => {
    expect(encodeYaml({ a: 'x\ny' })).toBe('a: |-\n  x\n  y\n');
    expect(encodeYaml({ a: 'x\n\n' })).toBe('a: |+\n  x\n\n');
    expect(encodeYaml({ a: ' x\ny' })).toBe('a: |2-\n   x\n  y\n');
    expect(encodeYaml({ a: 'x \ny' })).toBe('a: "x \\ny"\n');
    expect(encodeYaml({ a: 'tab\there' })).toBe('a: "tab\\there"\n');
  });
  it('natural key order of go-yaml v2', () => {
    expect(encodeYaml({ b: 1, a2: 1, a10: 1, 'a-b': 1, A: 1, _x: 1 })).toBe('_x: 1\nA: 1\na-b: 1\na2: 1\na10: 1\nb: 1\n');
  });
  it('keys longer than 128 bytes are complex keys', () => {
    const k = `example.com/${'x'.repeat(120)}`;
    expect(encodeYaml({ metadata: { annotations: { [k]: 'v', short: 'w' } } })).toBe(`metadata:\n  annotations:\n    ? ${k}\n    : v\n    short: w\n`);
    expect(encodeYaml({ [k]: { a: 1, b: 2 } })).toBe(`? ${k}\n: a: 1\n  b: 2\n`);
    expect(decodeBody(encodeYaml({ [k]: { a: 1 }, x: [1] }), 'yaml').value).toEqual({ [k]: { a: 1 }, x: [1] });
  });
  it('undefined members are left out, as in JSON', () => {
    expect(encodeYaml({ a: undefined, b: { c: undefined }, d: 1 })).toBe('b: {}\nd: 1\n');
  });
  it('top-level values', () => {
    expect(encodeYaml({})).toBe('{}\n');
    expect(encodeYaml([])).toBe('[]\n');
    expect(encodeYaml(['a', 'b'])).toBe('- a\n- b\n');
  });
  it('long strings are folded at column 80', () => {
    const msg = 'word '.repeat(30).trim();
    const out = encodeYaml({ message: msg });
    expect(out.split('\n')[0].length).toBeGreaterThan(80);
    expect(out.split('\n')[1].startsWith('  word')).toBe(true);
    expect((decodeBody(out, 'yaml').value as { message: string }).message).toBe(msg);
  });
  it('folding and quoting like go-yaml v2 (plain, single, double)', () => {
    const long = 'aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq rrrr ssss tttt';
    expect(encodeYaml({ message: long })).toBe('message: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo\n  pppp qqqq rrrr ssss tttt\n');
    expect(encodeYaml({ message: `*${long}` })).toBe("message: '*aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo\n  pppp qqqq rrrr ssss tttt'\n");
    expect(encodeYaml({ message: `true ${long}\t` })).toBe('message: "true aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn\n  oooo pppp qqqq rrrr ssss tttt\\t"\n');
    expect(encodeYaml({ l: [{ message: long, n: 1 }] })).toBe('l:\n- message: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo\n    pppp qqqq rrrr ssss tttt\n  "n": 1\n');
  });
  it('characters: astral escaped, NBSP kept, tab escaped, indicator keys quoted', () => {
    expect(encodeYaml({ e: 'emoji 😀', nb: 'a\u00a0b', t: 'a\tb' })).toBe('e: "emoji \\U0001F600"\nnb: a\u00a0b\nt: "a\\tb"\n');
    expect(encodeYaml({ k: { 'a: b': 1, '#x': 2, '-': 3, '- x': 4, '?x': 5 } })).toBe("k:\n  '#x': 2\n  '-': 3\n  '- x': 4\n  ?x: 5\n  'a: b': 1\n");
    expect(encodeYaml({ a: '...', b: '..', c: 'a.b/c-d=e+f' })).toBe("a: '...'\nb: ..\nc: a.b/c-d=e+f\n");
    expect(encodeYaml({ d: '2024-13-01', t: '2024-02-29T10:00:00Z', v: '1:20', h: '0x1F', o: 'On' })).toBe('d: 2024-13-01\nh: "0x1F"\no: "On"\nt: "2024-02-29T10:00:00Z"\nv: "1:20"\n');
  });
  it('round-trips through the decoder', () => {
    const obj = { a: ['yes', 'no', '0777', '1.5', '~', '', ' x', 'x ', '#c', '- d', 'a #b', '{x}', 'multi\nline\n', 'é', '\u0007'], b: { 'key with: colon': 1, '': 2, '1': 3 } };
    expect(decodeBody(encodeYaml(obj), 'yaml').value).toEqual(obj);
  });
});
