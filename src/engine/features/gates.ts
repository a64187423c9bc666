// The feature gates of a v1.33 kube-apiserver [component-base featuregate, apiserver pkg/features,
// kubernetes pkg/features]: the gates the spec names and the real v1.33 gates a user is likely to type, each
// with its real stage and default at 1.33. Alpha gates default off, beta gates mostly on, GA gates are locked
// to their default (setting one warns, setting it to the other value fails), deprecated gates warn.
// Setting them follows featureGate.Set / SetFromMap: the same parsing and the same messages.

export type GateStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface GateSpec {
  stage: GateStage;
  default: boolean;
  /** LockToDefault: the gate cannot be set to the other value. */
  locked?: boolean;
}

const A = (): GateSpec => ({ stage: 'ALPHA', default: false });
const B = (on: boolean): GateSpec => ({ stage: 'BETA', default: on });
const GA = (locked = true): GateSpec => ({ stage: 'GA', default: true, locked });
const DEP = (on: boolean, locked = false): GateSpec => ({ stage: 'DEPRECATED', default: on, locked });

/** The special gates AllAlpha and AllBeta set every alpha (beta) gate not named explicitly. */
export const ALL_ALPHA = 'AllAlpha';
export const ALL_BETA = 'AllBeta';

export const FEATURE_GATES: Readonly<Record<string, GateSpec>> = {
  [ALL_ALPHA]: A(),
  [ALL_BETA]: B(false),
  // k8s.io/apiserver (generic API server)
  AggregatedDiscoveryRemoveBetaType: DEP(true),
  AllowParsingUserUIDFromCertAuth: B(true),
  AllowUnsafeMalformedObjectDeletion: A(),
  AnonymousAuthConfigurableEndpoints: B(true),
  APIResponseCompression: B(true),
  APIServerIdentity: B(true),
  APIServerTracing: B(true),
  APIServingWithRoutine: A(),
  AuthorizeWithSelectors: B(true),
  BtreeWatchCache: GA(),
  CBORServingAndStorage: A(),
  ConcurrentWatchObjectDecode: B(false),
  ConsistentListFromCache: B(true),
  CoordinatedLeaderElection: B(false),
  DeclarativeValidation: B(true),
  DeclarativeValidationTakeover: B(false),
  KMSv1: DEP(false),
  ListFromCacheSnapshot: A(),
  MutatingAdmissionPolicy: A(),
  OpenAPIEnums: B(true),
  RemoteRequestHeaderUID: B(true),
  ResilientWatchCacheInitialization: B(true),
  RetryGenerateName: GA(),
  SeparateCacheWatchRPC: DEP(false),
  StorageVersionAPI: A(),
  StorageVersionHash: B(true),
  StreamingCollectionEncodingToJSON: B(true),
  StreamingCollectionEncodingToProtobuf: B(true),
  StrictCostEnforcementForVAP: GA(),
  StrictCostEnforcementForWebhooks: GA(),
  StructuredAuthenticationConfiguration: B(true),
  StructuredAuthorizationConfiguration: GA(),
  UnauthenticatedHTTP2DOSMitigation: B(true),
  WatchCacheInitializationPostStartHook: B(false),
  WatchFromStorageWithoutResourceVersion: DEP(false, true),
  // streaming lists: the spec's table has them on (as v1.32 did); v1.33 itself turned the default back off
  WatchList: B(true),
  // k8s.io/apiextensions-apiserver
  CRDValidationRatcheting: B(true),
  CustomResourceFieldSelectors: GA(),
  // kubernetes (the rest of kube-apiserver's gates)
  AnyVolumeDataSource: B(true),
  AuthorizeNodeWithSelectors: B(true),
  ClusterTrustBundleProjection: B(false),
  ContainerStopSignals: A(),
  CPUManagerPolicyAlphaOptions: A(),
  CPUManagerPolicyBetaOptions: B(true),
  CronJobsScheduledAnnotation: B(true),
  CSIMigrationPortworx: GA(),
  DeploymentReplicaSetTerminatingReplicas: A(),
  DisableNodeKubeProxyVersion: DEP(true),
  DRAAdminAccess: A(),
  DRAResourceClaimDeviceStatus: B(true),
  DynamicResourceAllocation: B(false),
  ExecProbeTimeout: GA(false),
  GitRepoVolumeDriver: DEP(false),
  GracefulNodeShutdown: B(true),
  HonorPVReclaimPolicy: GA(),
  HPAConfigurableTolerance: A(),
  HPAScaleToZero: A(),
  ImageVolume: B(false),
  InPlacePodVerticalScaling: B(true),
  JobBackoffLimitPerIndex: GA(),
  JobManagedBy: B(true),
  JobPodReplacementPolicy: B(true),
  JobSuccessPolicy: GA(),
  KubeletFineGrainedAuthz: B(true),
  LegacySidecarContainers: DEP(false),
  LoadBalancerIPMode: GA(),
  MatchLabelKeysInPodAffinity: GA(),
  MatchLabelKeysInPodTopologySpread: B(true),
  MaxUnavailableStatefulSet: A(),
  MemoryManager: GA(),
  MultiCIDRServiceAllocator: GA(false),
  NFTablesProxyMode: GA(),
  NodeInclusionPolicyInPodTopologySpread: GA(),
  NodeSwap: B(true),
  OrderedNamespaceDeletion: B(true),
  PodDeletionCost: B(true),
  PodIndexLabel: GA(),
  PodLevelResources: A(),
  PodLifecycleSleepAction: B(true),
  PodLifecycleSleepActionAllowZero: B(true),
  PodObservedGenerationTracking: A(),
  PodReadyToStartContainersCondition: B(true),
  ProcMountType: B(true),
  RecoverVolumeExpansionFailure: B(true),
  RecursiveReadOnlyMounts: GA(),
  RelaxedDNSSearchValidation: B(true),
  RelaxedEnvironmentVariableValidation: B(true),
  SchedulerAsyncPreemption: B(true),
  SchedulerQueueingHints: B(true),
  SELinuxChangePolicy: B(true),
  SELinuxMount: B(false),
  ServiceAccountTokenJTI: GA(),
  ServiceAccountTokenNodeBinding: GA(),
  ServiceTrafficDistribution: GA(),
  SidecarContainers: GA(),
  SizeMemoryBackedVolumes: GA(),
  StatefulSetAutoDeletePVC: GA(),
  StorageVersionMigrator: A(),
  SupplementalGroupsPolicy: B(true),
  TopologyAwareHints: GA(),
  UserNamespacesSupport: B(true),
  VolumeAttributesClass: B(false),
};

/** Every gate's default (AllAlpha and AllBeta are not gates of behaviour and are left out). */
export function defaultFeatureGates(): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const [name, spec] of Object.entries(FEATURE_GATES)) if (name !== ALL_ALPHA && name !== ALL_BETA) out[name] = spec.default;
  return out;
}

export interface GateResolution {
  /** Every gate's value. */
  enabled: Record<string, boolean>;
  /** What the real server logs as warnings (GA or deprecated gates named). */
  warnings: string[];
  /** Refusals; the first unknown gate stops the evaluation (as SetFromMap does). */
  errors: string[];
}

/** Go's strconv.ParseBool. */
export function parseGoBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/**
 * One `--feature-gates` value (featureGate.Set): `A=true,B=false`, empty items skipped, spaces trimmed.
 * Throws the real message for a missing or bad value.
 */
export function parseFeatureGates(value: string, into: Record<string, boolean> = {}): Record<string, boolean> {
  const out = { ...into };
  for (const s of value.split(',')) {
    if (s.length === 0) continue;
    const eq = s.indexOf('=');
    const k = (eq < 0 ? s : s.slice(0, eq)).trim();
    if (eq < 0) throw new Error(`missing bool value for ${k}`);
    const v = s.slice(eq + 1).trim();
    const b = parseGoBool(v);
    if (b === undefined) throw new Error(`invalid value of ${k}=${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
    // a later value for the same gate replaces the earlier one, keeping the first position
    out[k] = b;
  }
  return out;
}

/** The gates in effect for the given settings (unsafeSetFromMap), with warnings and errors. */
export function resolveFeatureGates(settings: Record<string, boolean>): GateResolution {
  const enabled = defaultFeatureGates();
  const explicit = new Set<string>();
  const warnings: string[] = [];
  const errors: string[] = [];
  const special: [string, boolean][] = [];
  for (const [k, v] of Object.entries(settings)) {
    const spec = Object.prototype.hasOwnProperty.call(FEATURE_GATES, k) ? FEATURE_GATES[k] : undefined;
    if (!spec) {
      errors.push(`unrecognized feature gate: ${k}`);
      break;
    }
    if (spec.locked && spec.default !== v) {
      errors.push(`cannot set feature gate ${k} to ${v}, feature is locked to ${spec.default}`);
      continue;
    }
    if (k === ALL_ALPHA || k === ALL_BETA) {
      special.push([k, v]);
      continue;
    }
    enabled[k] = v;
    explicit.add(k);
    if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${k}=${v}. It will be removed in a future release.`);
    else if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${k}=${v}. It will be removed in a future release.`);
  }
  // per-feature values win over AllAlpha/AllBeta
  for (const [k, v] of special) {
    const stage = k === ALL_ALPHA ? 'ALPHA' : 'BETA';
    for (const [name, spec] of Object.entries(FEATURE_GATES)) {
      if (name === ALL_ALPHA || name === ALL_BETA || explicit.has(name) || spec.stage !== stage) continue;
      enabled[name] = v;
    }
  }
  return { enabled, warnings, errors };
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several in brackets. */
export function aggregateMessage(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
