// Request metrics, served at GET /metrics in the Prometheus text format [K8S endpoints/metrics]: the counter
// apiserver_request_total, the histogram apiserver_request_duration_seconds and the gauge
// apiserver_requested_deprecated_apis, with the real label names and latency buckets. As in the real server,
// every resource route is instrumented: the labels describe the route (not the URL as typed), the code is the
// response's, and a watch is counted when its stream ends. Time comes from the injected clock.

import type { Clock } from '../env.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { ResourceRequestInfo } from './request-info.js';
import { EngineResponse } from './wire.js';
import type { EngineRequest } from './wire.js';

/** apiserver_request_duration_seconds buckets of the real server (seconds). */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/** What the real /metrics answers a client that does not ask for OpenMetrics (prometheus/common v0.62 expfmt). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores';

/** Whether a route is deprecated, and the release that removes it ('' when none is planned), from its warning text. */
function deprecationOf(def: ResourceDefinition): { removedRelease: string } | undefined {
  if (!def.deprecated) return undefined;
  const removed = /, unavailable in v(\d+\.\d+)\+/.exec(def.deprecated);
  return { removedRelease: removed ? removed[1] : '' };
}

/** What the real installer knows about a route when it instruments it. */
export interface RouteLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
  deprecated: boolean;
  removedRelease: string;
}

/** The labels of one resource request, computed as the real MonitorRequest reports them. */
export function routeLabels(def: ResourceDefinition, info: ResourceRequestInfo, request: EngineRequest, query: URLSearchParams): RouteLabels {
  const method = request.method.toUpperCase();
  // the installer's scope: a named path or a POST is `resource`, else the kind's scope (`cluster` across namespaces)
  const scope = info.name || method === 'POST' ? 'resource' : def.namespaced && info.namespace ? 'namespace' : 'cluster';
  const dep = deprecationOf(def);
  return {
    verb: reportedVerb(method, scope, info, request, query),
    dry_run: dryRunLabel(query),
    group: def.group,
    version: info.version,
    resource: def.plural,
    subresource: info.subresource,
    scope,
    component: 'apiserver',
    deprecated: !!dep,
    removedRelease: dep?.removedRelease ?? '',
  };
}

function reportedVerb(method: string, scope: string, info: ResourceRequestInfo, request: EngineRequest, query: URLSearchParams): string {
  if (info.watchPath) return 'WATCH';
  let verb = method === 'GET' || method === 'HEAD' ? (scope === 'resource' ? 'GET' : 'LIST') : method;
  if (method === 'GET') {
    // the first `watch` value, unless it is 0 or false, makes a GET a WATCH
    const w = query.getAll('watch');
    if (w.length > 0 && w[0].toLowerCase() !== '0' && w[0].toLowerCase() !== 'false') verb = 'WATCH';
  }
  if (verb === 'PATCH' && request.headers.get('Content-Type') === 'application/apply-patch+yaml') verb = 'APPLY';
  return ['GET', 'LIST', 'WATCH', 'POST', 'PUT', 'PATCH', 'APPLY', 'DELETE'].includes(verb) ? verb : 'other';
}

/** `dryRun` values deduplicated, sorted and joined; `invalid` when one is not `All`. */
function dryRunLabel(query: URLSearchParams): string {
  if (!query.has('dryRun')) return '';
  const values = query.getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

export class ApiMetrics {
  private readonly requests = new Map<string, number>();
  private readonly durations = new Map<string, Histogram>();
  private readonly deprecatedApis = new Set<string>();

  constructor(private readonly clock: Clock) {}

  /**
   * The one entry of the request path: runs a resource route's handler (which answers errors as responses)
   * and records the request when its response is complete: at once, or when a streamed body ends.
   */
  async instrument(route: RouteLabels, run: () => Promise<EngineResponse>): Promise<EngineResponse> {
    const started = this.clock.now();
    const response = await run();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      this.observe(route, response.status, (this.clock.now() - started) / 1000);
    };
    if (route.verb !== 'WATCH' || !response.streaming) {
      record();
      return response;
    }
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // pull only when the client reads, so the hub's count of unread events (its slow-watcher bound) stays exact
    const source: UnderlyingSource<Uint8Array> = {
      async pull(controller) {
        try {
          const r = await reader.read();
          if (r.done) {
            record();
            controller.close();
          } else if (r.value !== undefined) controller.enqueue(r.value as Uint8Array<ArrayBuffer>);
        } catch (e) {
          record();
          controller.error(e);
        }
      },
      cancel(reason) {
        record();
        return reader.cancel(reason);
      },
    };
    const body = new ReadableStream<Uint8Array>(source, { highWaterMark: 0 });
    return new EngineResponse(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** The label texts of a route (histogram series, and counter series by code), made once per route. */
  private readonly labelTexts = new Map<string, { hist: string; byCode: Map<number, string> }>();

  private observe(route: RouteLabels, code: number, seconds: number): void {
    const id = `${route.verb}\0${route.dry_run}\0${route.group}\0${route.version}\0${route.resource}\0${route.subresource}\0${route.scope}\0${route.component}`;
    let texts = this.labelTexts.get(id);
    const base = () => ({
      verb: route.verb,
      dry_run: route.dry_run,
      group: route.group,
      version: route.version,
      resource: route.resource,
      subresource: route.subresource,
      scope: route.scope,
      component: route.component,
    });
    if (!texts) this.labelTexts.set(id, (texts = { hist: labelText(base()), byCode: new Map() }));
    let counterKey = texts.byCode.get(code);
    if (counterKey === undefined) texts.byCode.set(code, (counterKey = labelText({ ...base(), code: String(code) })));
    this.requests.set(counterKey, (this.requests.get(counterKey) ?? 0) + 1);
    const histKey = texts.hist;
    let h = this.durations.get(histKey);
    if (!h) this.durations.set(histKey, (h = { buckets: REQUEST_DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 }));
    // buckets ascend: every one from the first that holds the duration counts it
    const buckets = h.buckets;
    for (let i = REQUEST_DURATION_BUCKETS.length - 1; i >= 0 && seconds <= REQUEST_DURATION_BUCKETS[i]; i--) buckets[i]++;
    h.sum += seconds;
    h.count++;
    if (route.deprecated) {
      this.deprecatedApis.add(
        labelText({ group: route.group, version: route.version, resource: route.resource, subresource: route.subresource, removed_release: route.removedRelease }),
      );
    }
  }

  /** The exposition: families sorted by name, series by label values; empty families left out. */
  render(): string {
    const out: string[] = [];
    if (this.durations.size > 0) {
      out.push('# HELP apiserver_request_duration_seconds [STABLE] Latency of apiserver requests in seconds, per route.');
      out.push('# TYPE apiserver_request_duration_seconds histogram');
      for (const key of [...this.durations.keys()].sort()) {
        const h = this.durations.get(key)!;
        const inner = key.slice(1, -1);
        REQUEST_DURATION_BUCKETS.forEach((le, i) => {
          out.push(`apiserver_request_duration_seconds_bucket{${inner},le="${goFloat(le)}"} ${goFloat(h.buckets[i])}`);
        });
        out.push(`apiserver_request_duration_seconds_bucket{${inner},le="+Inf"} ${goFloat(h.count)}`);
        out.push(`apiserver_request_duration_seconds_sum${key} ${goFloat(h.sum)}`);
        out.push(`apiserver_request_duration_seconds_count${key} ${goFloat(h.count)}`);
      }
    }
    if (this.requests.size > 0) {
      out.push('# HELP apiserver_request_total [STABLE] Number of apiserver requests, per route and response code.');
      out.push('# TYPE apiserver_request_total counter');
      for (const key of [...this.requests.keys()].sort()) out.push(`apiserver_request_total${key} ${goFloat(this.requests.get(key)!)}`);
    }
    if (this.deprecatedApis.size > 0) {
      out.push('# HELP apiserver_requested_deprecated_apis [STABLE] Deprecated APIs that were requested (1 for each one seen).');
      out.push('# TYPE apiserver_requested_deprecated_apis gauge');
      for (const key of [...this.deprecatedApis].sort()) out.push(`apiserver_requested_deprecated_apis${key} 1`);
    }
    // v1.33 registers the declarative-validation counters at start; this engine validates by hand-written
    // rules only, so declarative and hand-written validation never disagree and nothing panics: both stay 0
    out.push('# HELP apiserver_validation_declarative_validation_mismatch_total [BETA] Times declarative validation disagreed with the hand-written validation of core types.');
    out.push('# TYPE apiserver_validation_declarative_validation_mismatch_total counter');
    out.push('apiserver_validation_declarative_validation_mismatch_total 0');
    out.push('# HELP apiserver_validation_declarative_validation_panic_total [BETA] Times declarative validation panicked.');
    out.push('# TYPE apiserver_validation_declarative_validation_panic_total counter');
    out.push('apiserver_validation_declarative_validation_panic_total 0');
    return out.join('\n') + '\n';
  }
}

/** `{a="x",b="y"}` with the label names sorted, as the Prometheus client writes them. */
function labelText(labels: Record<string, string>): string {
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k].replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return `{${parts.join(',')}}`;
}

/** A sample value as Go's strconv.FormatFloat(v, 'g', -1, 64) writes it (the text format's rule). */
export function goFloat(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return '0';
  const [mantissa, exp] = v.toExponential().split('e');
  const e = Number(exp);
  // the shortest form switches to an exponent (at least two digits) below 1e-4 and from 1e+06
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(v);
}
