// Loaded with `node --import` by e2e/cli/startup.test.ts: appends the URL of every module the
// process resolves to the file named by SVC_MODULE_LOG, so a test can say what a command loaded.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from "node:fs";
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      appendFileSync(${JSON.stringify(process.env.SVC_MODULE_LOG)}, resolved.url + "\\n");
      return resolved;
    }
  `)}`,
);
