// `npm run lint:cycles` (part of `npm run lint`): no import circle in server/, type-only imports
// included, since a type import ties two files as much as a value import for a reader
// (docs/architecture.md "Layers"). An import through `await import()` is left out: it loads a
// file on purpose only when it is needed (db/client.ts loads PGlite only for the embedded engine).
const config = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: break it by moving what both sides need into the lower one.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["dynamic-import"] } },
    },
    {
      // Issue 49: a channel module (server/channels/<name>/) stands on the floor below it and
      // on nothing beside or above it, so a reader finds the whole channel in its folder and a
      // fourth channel cannot lean on the third. Allowed: its own folder, the interface it
      // implements (channels/channel.ts), the fields every connect request is built of
      // (channels/connect-fields.ts), its provider-specific folder of the same name
      // (server/whatsapp/ for the WhatsApp channel's templates), and the floor: db, lib,
      // providers, outbox.
      name: "channel-module-floor",
      severity: "error",
      comment:
        "A channel module imports only its own folder, channels/channel.ts, channels/connect-fields.ts, server/<its name>/ and the floor (db, lib, providers, outbox): move what it needs down, or pass it in.",
      from: { path: "^server/channels/([^/]+)/" },
      to: {
        pathNot: [
          "^server/channels/$1/",
          "^server/channels/(channel|connect-fields)[.]ts$",
          "^server/$1/",
          "^server/(db|lib|providers|outbox|generated)/",
          "node_modules",
          "^node:",
        ],
        dependencyTypesNot: ["core"],
      },
    },
    {
      // Issue 49: the dashboard's bundles reach the channel registry (the schemas import it), so
      // nothing it imports may lead to a channel's server-only parts (its provider client, with
      // Node's sockets and TLS): those are registered apart, in channels/server-registry.ts.
      name: "channel-registry-no-server-parts",
      severity: "error",
      comment:
        "The channel registry reaches the dashboard's bundles: a channel's server-only parts (<type>/server.ts, its provider client) are registered in channels/server-registry.ts, never reached from channels/registry.ts.",
      from: { path: "^server/channels/registry[.]ts$" },
      to: { path: "^server/channels/(server-registry|[^/]+/server)[.]ts$", reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^server/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};

export default config;
