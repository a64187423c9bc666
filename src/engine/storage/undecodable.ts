// A stored value that cannot be decoded: the playground's simulation of a corrupt object (docs/hosts.md,
// "Simulated corruption"). In etcd such a value is bytes the codec cannot read; here it is a marker object
// holding the bytes (the object's JSON cut short), stored through the ordinary storage contract, so that it
// persists in every backend (memory, journal files, IndexedDB) and is recognised when the engine loads.

import type { KubeObject } from '../object.js';

/** The member that marks a stored value as undecodable; it holds the stored bytes as text. */
export const UNDECODABLE_MEMBER = 'x-playground-undecodable-bytes';

/** What the real storage decoder answers for these bytes (JSON cut short: encoding/json's error). */
export const UNDECODABLE_DECODE_ERROR = "couldn't get version/kind; json parse error: unexpected end of JSON input";

/** The undecodable value standing in for `obj`: its JSON, cut off in the middle. */
export function undecodableValue(obj: KubeObject): KubeObject {
  const text = JSON.stringify(obj);
  const bytes = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  return { [UNDECODABLE_MEMBER]: bytes } as unknown as KubeObject;
}

export function isUndecodable(obj: KubeObject | undefined): boolean {
  return !!obj && typeof (obj as Record<string, unknown>)[UNDECODABLE_MEMBER] === 'string';
}
