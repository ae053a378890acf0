import { EventEmitter } from "node:events";

// New outbox work wakes this process's pipeline loop at once (other instances find it on
// their next poll). Shared through globalThis: Next's bundle and the server are two graphs.
const slot = globalThis as typeof globalThis & { __svcWake?: EventEmitter };

export function pipelineWaker(): EventEmitter {
  slot.__svcWake ??= new EventEmitter();
  return slot.__svcWake;
}

export function wakePipeline(): void {
  pipelineWaker().emit("wake");
}
