// The controllers the engine's controller manager runs by default.
import { garbageCollector } from './garbage-collector.js';
import type { ControllerSpec } from './manager.js';
import { namespaceController } from './namespace.js';

export { ControllerManager, type Controller, type ControllerContext, type ControllerSpec } from './manager.js';

export const defaultControllers: ControllerSpec[] = [namespaceController, garbageCollector];
