#!/usr/bin/env node
// `npx svc` runs this link to the operator CLI (bin/svc.mjs, operations.md). It is a workspace
// package of its own, and the project's package.json names no bin, so that npx finds the
// command in node_modules/.bin and runs it at once: for a bin of the project's own
// package.json, npm 11 first reads the whole installed tree (about 1.3 s here, 4 s on the
// first call, when it also installs the project into its cache).
import "../../bin/svc.mjs";
