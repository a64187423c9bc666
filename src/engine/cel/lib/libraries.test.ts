// End-to-end tests: expressions compiled and evaluated by the CEL core with the Kubernetes libraries bound.
import { describe, expect, it } from 'vitest';
import { createCelEnv, isCompileError, isRuntimeError } from '../env.js';
import type { CelVersion } from '../types.js';
import { CelMap, CelOpaque, CelOptional } from '../values.js';
import type { CelValue } from '../values.js';
import type { Authorizer, AuthorizerAttributes } from './index.js';
import { AUTHORIZER_TYPE, RESOURCE_CHECK_TYPE, authorizerValue, requestResourceValue } from './index.js';

function plain(v: CelValue): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof CelMap) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), plain(x)]));
  if (v instanceof CelOptional) return v.hasValue ? { some: plain(v.value!) } : 'none';
  if (v instanceof CelOpaque) return `<${String(v)}>`;
  return v;
}

const seen: AuthorizerAttributes[] = [];
const recording: Authorizer = {
  authorize(attrs) {
    seen.push(attrs);
    if (attrs.resource === 'secrets') return { decision: 'deny', reason: 'no secrets for you' };
    if (attrs.resource === 'broken') throw new Error('webhook unavailable');
    return { decision: 'allow', reason: `ok ${attrs.verb}` };
  },
};

function run(expr: string, version: CelVersion = '1.33') {
  const env = createCelEnv({ version, variables: { authorizer: AUTHORIZER_TYPE, requestResource: RESOURCE_CHECK_TYPE } });
  const p = env.compile(expr);
  if (isCompileError(p)) return { compileError: p.message };
  const authz = authorizerValue({ user: 'alice', groups: ['devs'] }, recording);
  const r = p.evaluate({ authorizer: authz, requestResource: requestResourceValue(authz, { group: 'apps', resource: 'deployments', namespace: 'ns1', name: 'web' }) });
  if (isRuntimeError(r)) return { error: r.message };
  return { value: plain(r.value), cost: r.cost };
}

type Want = { value: unknown } | { error: string } | { compileError: string | RegExp };
const cases: [string, Want, CelVersion?][] = [
  // ip / cidr
  ["ip('10.0.0.1').family() == 4", { value: true }],
  ["ip('::1').family()", { value: 6n }],
  ["ip('127.0.0.1').isLoopback() && !ip('1.2.3.4').isLoopback()", { value: true }],
  ["ip('fe80::1').isLinkLocalUnicast()", { value: true }],
  ["ip('ff02::1').isLinkLocalMulticast()", { value: true }],
  ["ip('255.255.255.255').isGlobalUnicast()", { value: false }],
  ["ip('0.0.0.0').isUnspecified()", { value: true }],
  ["ip.isCanonical('2001:db8::abcd') && !ip.isCanonical('2001:DB8::ABCD')", { value: true }],
  ["isIP('::ffff:1.2.3.4')", { value: false }],
  ["string(ip('2001:db8:0:0:0:0:0:1'))", { value: '2001:db8::1' }],
  ["ip('1.2.3.4') == ip('1.2.3.4') && ip('1.2.3.4') != ip('1.2.3.5')", { value: true }],
  ["type(ip('1.2.3.4')) == net.IP", { value: true }],
  ["ip('192.168.0.1.0')", { error: 'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long' }],
  ["ip('fe80::1%eth0')", { error: 'IP address "fe80::1%eth0" with zone value is not allowed' }],
  ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", { value: true }],
  ["cidr('192.168.0.0/24').containsIP('192.168.1.1')", { value: false }],
  ["cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", { value: true }],
  ["cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')", { value: false }],
  ["cidr('::1/128').ip().family()", { value: 6n }],
  ["cidr('192.168.0.0/16').prefixLength()", { value: 16n }],
  ["string(cidr('10.0.0.0/8').masked())", { value: '10.0.0.0/8' }],
  ["cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()", { value: true }],
  ["isCIDR('192.168.0.0/33')", { value: false }],
  ["cidr('192.168.0.1/16')", { error: 'network address parse error during conversion from string: CIDR "192.168.0.1/16" has non-zero bits after the prefix length' }],
  ["cidr('192.168.0.0/')", { error: 'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""' }],
  ["cidr('10.0.0.0/8').containsIP('nope')", { error: 'no such overload' }],
  ["ip('10.0.0.1')", { compileError: "undeclared reference to 'ip' (in container '')" }, '1.30'],
  // quantity
  ["quantity('1Gi').isGreaterThan(quantity('100Mi'))", { value: true }],
  ["quantity('200M') == quantity('0.2G')", { value: true }],
  ["quantity('50M').isLessThan(quantity('50Mi'))", { value: true }],
  ["quantity('50Mi').compareTo(quantity('50M'))", { value: 1n }],
  ["quantity('50k').add(quantity('20')) == quantity('50.02k')", { value: true }],
  ["quantity('50k').sub(20) == quantity('49980')", { value: true }],
  ["quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger()", { value: 20n }],
  ["quantity('9999999999999999999999999999999999999G').asInteger()", { error: 'cannot convert value to integer' }],
  ["quantity('9999999999999999999999999999999999999G').isInteger()", { value: false }],
  ["quantity('50.703k').asApproximateFloat()", { value: 50703 }],
  ["sign(quantity('-5m')) == -1 && quantity('0').sign() == 0", { value: true }],
  ["isQuantity('20Mo')", { value: false }],
  ["quantity('10Mm')", { error: "unable to parse quantity's suffix" }],
  ["quantity('1')", { compileError: "undeclared reference to 'quantity' (in container '')" }, '1.28'],
  ["type(quantity('1')) == kubernetes.Quantity", { value: true }],
  // url
  ["url('https://user:pass@example.com:80/path?query=val#fragment').getHost()", { value: 'example.com:80' }],
  ["url('https://[::1]:80/').getHostname()", { value: '::1' }],
  ["url('https://example.com:80/').getPort()", { value: '80' }],
  ["url('/path').getScheme()", { value: '' }],
  ["url('https://example.com/path with spaces/').getEscapedPath()", { value: '/path%20with%20spaces/' }],
  ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { value: { k1: ['a'], k2: ['b', 'c'] } }],
  ["url('https://example.com/path').getQuery() == {}", { value: true }],
  ["isURL('https://a:b:c/') || isURL('../relative-path')", { value: false }],
  ["url('../relative-path')", { error: 'URL parse error during conversion from string: parse "../relative-path": invalid URI for request' }],
  ["url('https://a.com/x') == url('https://a.com/x')", { value: true }],
  // regex
  ["'abc 123'.find('[0-9]+')", { value: '123' }],
  ["'abc'.find('[0-9]+')", { value: '' }],
  ["'123 abc 456'.findAll('[0-9]+')", { value: ['123', '456'] }],
  ["'123 abc 456'.findAll('[0-9]+', 1)", { value: ['123'] }],
  ["'ABC'.find('(?i)b')", { value: 'B' }],
  ["'x'.find('(a)\\\\1')", { error: 'Illegal regex: error parsing regexp: invalid escape sequence: `\\1`' }],
  // lists
  ["[1, 2, 3].sum()", { value: 6n }],
  ["[1.5, 2.5].sum()", { value: 4 }],
  ["[duration('1s'), duration('2m')].sum() == duration('121s')", { value: true }],
  ["[9223372036854775807, 1].sum()", { error: 'integer overflow' }],
  ["[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3", { value: true }],
  ["['b', 'a'].min()", { value: 'a' }],
  ["[1, 2, 2, 3].isSorted() && ![2, 1].isSorted()", { value: true }],
  ["[1, 2, 3, 2].indexOf(2) == 1 && [1, 2, 3, 2].lastIndexOf(2) == 3 && [1].indexOf(5) == -1", { value: true }],
  ["[].min()", { error: 'min called on empty list' }],
  ["sets.contains([1, 2, 3], [3, 1]) && !sets.contains([1], [2])", { value: true }],
  ["sets.equivalent([1, 2], [2, 1, 1]) && sets.intersects([1, 2], [2, 9])", { value: true }],
  ["sets.contains([1], [1])", { compileError: /undeclared reference to 'sets'|found no matching overload/ }, '1.29'],
  // strings
  ["'TacoCat'.lowerAscii() + 'x'.upperAscii()", { value: 'tacocatX' }],
  ["'hello world'.split(' ')", { value: ['hello', 'world'] }],
  ["'a,b,c'.split(',', 2)", { value: ['a', 'b,c'] }],
  ["['a', 'b'].join('-')", { value: 'a-b' }],
  ["'tacocat'.substring(4)", { value: 'cat' }],
  ["'tacocat'.substring(4, 3)", { error: 'invalid substring range. start: 4, end: 3' }],
  ["'  x  '.trim()", { value: 'x' }],
  ["'ta©o©αT'.indexOf('©', 3)", { value: 4n }],
  ["'hello'.charAt(1)", { value: 'e' }],
  ["'{0} days {0} hours'.replace('{0}', '2', 1)", { value: '2 days {0} hours' }],
  // cel-go exempts format() arguments from the homogeneous-literal check; the core does not (yet), hence dyn().
  ["'%s has %d items costing %.2f'.format([dyn('cart'), dyn(3), dyn(9.5)])", { value: 'cart has 3 items costing 9.50' }],
  ["'%x-%o-%b'.format([255, 8, 5])", { value: 'ff-10-101' }],
  ["strings.quote('a\"b')", { value: '"a\\"b"' }],
  ["'%d'.format([1])", { compileError: /undeclared|no matching overload/ }, '1.29'],
  // format
  ["format.dns1123Label().validate('my-name')", { value: 'none' }],
  ["format.dns1123Label().validate('a.b')", { value: { some: ['must not contain dots'] } }],
  ["format.named('uuid').value().validate('nope')", { value: { some: ['does not match the UUID format'] } }],
  ["format.named('unknown').hasValue()", { value: false }],
  ["format.named('labelValue').value() == format.labelValue()", { value: true }],
  ["format.uri() == format.uuid()", { value: false }],
  ["format.date().validate('2020-01-32').value()[0]", { value: 'invalid date' }],
  ["format.uri().validate('x')", { compileError: /undeclared|no matching overload/ }, '1.31'],
  // semver
  ["semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3", { value: true }, '1.34'],
  ["semver('v01.01', true) == semver('1.1.0')", { value: true }, '1.34'],
  ["semver('1.0.0').isLessThan(semver('1.2.3')) && semver('1.2.3').compareTo(semver('1.0.0')) == 1", { value: true }, '1.34'],
  ["isSemver('1.0') || isSemver('v1.0.0')", { value: false }, '1.34'],
  ["isSemver('v1.0', true)", { value: true }, '1.34'],
  ["semver('v1.0')", { error: 'No Major.Minor.Patch elements found' }, '1.34'],
  ["semver('1.0.0')", { compileError: "undeclared reference to 'semver' (in container '')" }, '1.33'],
  // authorizer
  ["authorizer.group('apps').resource('deployments').namespace('ns').name('web').check('get').allowed()", { value: true }],
  ["authorizer.group('').resource('secrets').check('list').reason()", { value: 'no secrets for you' }],
  ["authorizer.group('').resource('broken').check('list').errored()", { value: true }],
  ["authorizer.group('').resource('broken').check('list').error()", { value: 'webhook unavailable' }],
  ["authorizer.path('/healthz').check('get').allowed()", { value: true }],
  ["authorizer.path('  ')", { error: 'path must not be empty' }],
  ["authorizer.group('apps').resource('')", { error: 'resource must not be empty' }],
  ["authorizer.serviceAccount('ns', 'Bad_Name')", { error: 'Invalid service account name' }],
  ["authorizer.serviceAccount('Bad.NS', 'sa')", { error: 'Invalid service account namespace' }],
  ["requestResource.check('update').reason()", { value: 'ok update' }],
];

describe('Kubernetes libraries through the CEL core', () => {
  it.each(cases)('%s', (expr, want, version) => {
    const got = run(expr, version);
    if ('compileError' in want) {
      expect(got.compileError).toMatch(want.compileError);
    } else if ('error' in want) {
      expect(got).toEqual({ error: want.error });
    } else {
      expect(got.compileError).toBeUndefined();
      expect(got.error).toBeUndefined();
      expect(got.value).toEqual(want.value);
    }
  });

  it('passes the request attributes to the authorizer', () => {
    seen.length = 0;
    run("authorizer.serviceAccount('kube-system', 'ctrl').group('apps').resource('deployments').subresource('scale').namespace('prod').name('web').fieldSelector('spec.x=y').labelSelector('a=b').check('patch').allowed()");
    expect(seen).toEqual([
      {
        user: 'system:serviceaccount:kube-system:ctrl',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
        verb: 'patch',
        resourceRequest: true,
        apiVersion: '*',
        group: 'apps',
        resource: 'deployments',
        subresource: 'scale',
        namespace: 'prod',
        name: 'web',
        fieldSelector: 'spec.x=y',
        labelSelector: 'a=b',
      },
    ]);
    seen.length = 0;
    run("authorizer.path('/metrics').check('get').allowed()");
    expect(seen).toEqual([{ user: 'alice', groups: ['devs'], verb: 'get', path: '/metrics', resourceRequest: false }]);
  });

  it('selectors exist from 1.32', () => {
    expect(run("authorizer.group('').resource('pods').labelSelector('a=b').check('list').allowed()", '1.31').compileError).toMatch(/labelSelector/);
  });
});

describe('runtime costs as the Kubernetes cost model charges them', () => {
  const cost = (expr: string, version: CelVersion = '1.33') => {
    const r = run(expr, version);
    expect(r.error).toBeUndefined();
    return r.cost;
  };
  it('authorizer check is 350000', () => {
    // ident 1 + group 1 + resource 1 + check 350000 + allowed 1
    expect(cost("authorizer.group('').resource('pods').check('get').allowed()")).toBe(350004);
  });
  it('string traversals', () => {
    // 'a'*25 lowerAscii: ceil(25 * 0.1) = 3
    expect(cost(`'${'A'.repeat(25)}'.lowerAscii()`)).toBe(3);
    // replace: ceil(25 * 0.2) = 5
    expect(cost(`'${'A'.repeat(25)}'.replace('A', 'b')`)).toBe(5);
    // find: ceil((1 + 9) * 0.1) * ceil(6 * 0.25) = 1 * 2
    expect(cost("'abc 12345'.find('[0-9]+')")).toBe(2);
    // ip parse: ceil(8 * 0.1) = 1, family 1
    expect(cost("ip('10.0.0.1').family()")).toBe(2);
    // quantity parse ceil(3 * 0.1) = 1 twice, isGreaterThan 1
    expect(cost("quantity('1Gi').isGreaterThan(quantity('1Mi'))")).toBe(3);
  });
  it('list functions cost one traversal', () => {
    // list literal 10 + traversal 3
    expect(cost('[1, 2, 3].sum()')).toBe(13);
  });
});

describe('static cost estimates of the library calls', () => {
  const estimate = (expr: string, version: CelVersion = '1.33') => {
    const env = createCelEnv({ version, variables: { authorizer: AUTHORIZER_TYPE, s: { kind: 'string', maxSize: 100 } } });
    const p = env.compile(expr);
    if (isCompileError(p)) throw new Error(p.message);
    return p.estimateCost();
  };
  it('authorizer checks are fixed at 350000', () => {
    // ident 1 + path 1 + check 350000 + allowed 1
    expect(estimate("authorizer.path('/x').check('get').allowed()")).toEqual({ min: 350003, max: 350003 });
  });
  it('string traversal estimates follow the receiver size', () => {
    // s: maxLength 100 -> ident 1 + ceil(100 * 0.1) at most
    expect(estimate('s.lowerAscii()')).toEqual({ min: 1, max: 11 });
    // find: ceil((size+1) * 0.1) * ceil(len(regex) * 0.25) = {1..11} * 2
    expect(estimate("s.find('[0-9]+')")).toEqual({ min: 3, max: 23 });
  });
  it('nominal accessors cost 1', () => {
    expect(estimate("ip('1.2.3.4').family()", '1.31')).toEqual({ min: 2, max: 2 });
  });
});
