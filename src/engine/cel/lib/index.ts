// Kubernetes CEL libraries (owned by the cel-libs work). The CEL core imports `kubernetesLibraries` from
// here; until the libraries are bound it is empty.
export const kubernetesLibraries: unknown[] = [];
