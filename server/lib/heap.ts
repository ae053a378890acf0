import { setFlagsFromString } from "node:v8";

// Imported first by server/main.ts. Under load most of what a request allocates dies young,
// but some lives through two scavenges (a request waiting on a shared statement) and lands in
// the old generation as garbage. V8 lets that generation grow to up to four times what was
// live after its last full collection before it collects again, so under a steady load the
// process's peak memory was mostly garbage. Growing it by at most half keeps the peak low; a
// smaller step collected so often that V8's helper threads, which mark the heap beside the
// main thread, took CPU that the server's main thread and PostgreSQL need on a small machine
// (the measurements: docs/architecture.md, "One process, two front doors"). Not a cap: the
// heap still grows with what is live.
setFlagsFromString("--heap-growing-percent=50");
