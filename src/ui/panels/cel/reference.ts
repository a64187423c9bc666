// Examples and a short library reference for the CEL evaluator (descriptions are our own words).
// `since` is the compatibility version (1.28..1.34) from which the engine offers the function.

export interface CelExample {
  label: string;
  expression: string;
  variables: string;
  /** OpenAPI v3 schema (YAML) of self and oldSelf, as a CRD would declare them; typed like a CRD rule's. */
  schema?: string;
}

const deployment = `self:
  replicas: 3
  minReplicas: 1
  maxReplicas: 5
  image: registry.example.com/web:1.4.2
  labels:
    app: web
    tier: frontend
oldSelf:
  replicas: 2
  minReplicas: 1
  maxReplicas: 5
  image: registry.example.com/web:1.4.1
  labels:
    app: web
`;

/** The CRD-like schema of the deployment example: bounded strings and maps keep the cost estimate small. */
const deploymentSchema = `type: object
properties:
  replicas: {type: integer}
  minReplicas: {type: integer}
  maxReplicas: {type: integer}
  image: {type: string, maxLength: 256}
  labels:
    type: object
    maxProperties: 32
    additionalProperties: {type: string, maxLength: 63}
`;

export const EXAMPLES: CelExample[] = [
  { label: 'Replicas within bounds', expression: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', variables: deployment, schema: deploymentSchema },
  { label: 'Transition rule (oldSelf)', expression: 'self.replicas >= oldSelf.replicas || self.labels.tier == "frontend"', variables: deployment, schema: deploymentSchema },
  { label: 'Every label key is short', expression: 'self.labels.all(k, k.size() <= 63)', variables: deployment, schema: deploymentSchema },
  { label: 'Optional field with has()', expression: "has(self.labels.tier) ? self.labels.tier : 'none'", variables: deployment, schema: deploymentSchema },
  { label: 'Regex on the image tag', expression: "self.image.matches('^[a-z0-9.-]+/[a-z0-9-]+:[0-9]+\\\\.[0-9]+\\\\.[0-9]+$')", variables: deployment, schema: deploymentSchema },
  { label: 'map / filter macros', expression: '[1, 2, 3, 4].filter(x, x % 2 == 0).map(x, x * 10)', variables: '' },
  { label: 'Quantities (1.29+)', expression: "quantity('1.5Gi').isGreaterThan(quantity('1000Mi'))", variables: '' },
  { label: 'IP and CIDR (1.31+)', expression: "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))", variables: '' },
  { label: 'URL parsing', expression: "url('https://example.com:8443/path?q=1').getPort()", variables: '' },
  { label: 'Timestamps and durations', expression: "timestamp('2024-01-01T00:00:00Z') + duration('36h') > timestamp('2024-01-02T00:00:00Z')", variables: '' },
  { label: 'Admission: object and request', expression: "object.metadata.name.startsWith(request.userInfo.username + '-')", variables: `object:
  metadata:
    name: alice-config
request:
  operation: CREATE
  userInfo:
    username: alice
` },
  { label: 'Runtime error: division by zero', expression: 'self.replicas / (self.minReplicas - 1)', variables: deployment, schema: deploymentSchema },
  { label: 'Compile error: type mismatch', expression: "'replicas: ' + 3", variables: '' },
  { label: 'Cost: nested comprehension', expression: 'self.all(x, self.all(y, self.all(z, x + y + z >= 0)))', variables: 'self: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n' },
];

export interface LibraryEntry {
  name: string;
  signature: string;
  doc: string;
  since?: string;
}

export interface LibrarySection {
  title: string;
  entries: LibraryEntry[];
}

export const LIBRARY: LibrarySection[] = [
  {
    title: 'Core and macros',
    entries: [
      { name: 'has', signature: 'has(e.f) -> bool', doc: 'Whether a field is present (costs nothing).' },
      { name: 'all / exists / exists_one', signature: 'list.all(x, p) -> bool', doc: 'Predicate over every element (or map key).' },
      { name: 'map / filter', signature: 'list.map(x, e) -> list', doc: 'Transform or select elements; map(x, p, e) filters then maps.' },
      { name: 'size', signature: 'size(x) -> int', doc: 'Length of a string (code points), bytes, list or map.' },
      { name: 'in', signature: 'e in list|map -> bool', doc: 'Membership in a list, or key presence in a map.' },
      { name: 'conversions', signature: 'int() uint() double() string() bytes() bool() dyn() type()', doc: 'Explicit conversions and the runtime type.' },
      { name: 'timestamp / duration', signature: "timestamp('RFC3339'), duration('1h30m')", doc: 'Time values; getHours(), getDayOfWeek(tz)... accessors.' },
      { name: 'matches', signature: 'string.matches(re) -> bool', doc: 'RE2 regular expression search (backreferences are errors).' },
      { name: 'startsWith / endsWith / contains', signature: 'string.startsWith(s) -> bool', doc: 'Substring tests.' },
    ],
  },
  {
    title: 'Kubernetes: strings and lists',
    entries: [
      { name: 'charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join', signature: "'a,b'.split(',')", doc: 'The extended strings library.' },
      { name: 'format', signature: "'%s=%d'.format(['a', 1])", doc: 'printf-like formatting.', since: '1.30' },
      { name: 'strings.quote', signature: 'strings.quote(s)', doc: 'Quote and escape a string.', since: '1.30' },
      { name: 'isSorted, sum, min, max, indexOf, lastIndexOf', signature: '[1,2].isSorted()', doc: 'The Kubernetes lists library.' },
      { name: 'sets.contains / equivalent / intersects', signature: 'sets.contains([1,2],[1])', doc: 'Set relations between lists.', since: '1.30' },
      { name: 'find / findAll', signature: "'abc'.find('[a-z]')", doc: 'First or all RE2 matches.' },
    ],
  },
  {
    title: 'Kubernetes: values',
    entries: [
      { name: 'url', signature: "url(s).getScheme() getHost() getHostname() getPort() getEscapedPath() getQuery()", doc: 'Parse a request URI; isURL(s) checks one.' },
      { name: 'quantity', signature: "quantity('500m').asApproximateFloat()", doc: 'Resource quantities: add, sub, compareTo, isGreaterThan, isInteger, sign; isQuantity(s).', since: '1.29' },
      { name: 'ip', signature: "ip('::1').family() isLoopback() isGlobalUnicast()", doc: 'IP addresses; isIP(s).', since: '1.31' },
      { name: 'cidr', signature: "cidr('10.0.0.0/8').containsIP(ip) prefixLength() masked()", doc: 'CIDR ranges; isCIDR(s).', since: '1.31' },
      { name: 'format.named', signature: "format.dns1123Label().validate(s) -> optional list", doc: 'Named Kubernetes formats (dns1123Label, uri, uuid, date...).', since: '1.32' },
      { name: 'semver', signature: "semver('1.2.3').isLessThan(semver('1.3.0'))", doc: 'Semantic versions; isSemver(s).', since: '1.34' },
      { name: 'authorizer', signature: "authorizer.group('apps').resource('deployments').check('get').allowed()", doc: 'Authorization checks (admission policies).' },
    ],
  },
  {
    title: 'Variables',
    entries: [
      { name: 'self / oldSelf', signature: 'CRD validation rules', doc: 'The value the rule is attached to, and its previous value (transition rules).' },
      { name: 'object / oldObject', signature: 'admission policies', doc: 'The object of the request and its stored version (null on create).' },
      { name: 'request', signature: 'admission policies', doc: 'Request attributes: operation, userInfo, namespace, dryRun...' },
      { name: 'params', signature: 'admission policies', doc: 'The parameter resource of the binding.' },
    ],
  },
];

export const CEL_VERSIONS = ['1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34'] as const;
export const BINDABLE = ['self', 'oldSelf', 'object', 'oldObject', 'request', 'params'] as const;
