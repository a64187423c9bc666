// Test support for Storage backends: the conformance suite and its assertion helpers.
export { storageConformanceCases, type StorageConformanceCase } from './conformance.js';
export { assert, assertDeepEqual, assertEqual, assertRejects, fail, firstDifference } from './assert.js';
