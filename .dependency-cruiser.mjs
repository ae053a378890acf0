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
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^server/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};

export default config;
