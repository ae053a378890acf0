import type { Metadata } from "next";
import { codesOfType, codeStatus, ERROR_TYPES, errorDocUrl, type ErrorCode, type ErrorWhere } from "@/server/lib/error-catalog.ts";
import { declaringOperations } from "@/server/api/openapi.ts";
import { Markdown } from "../markdown.tsx";
import { requestOrigin } from "../origin.ts";

export const metadata: Metadata = {
  title: "Errors",
  description: "Every error type and code of the svc API: HTTP status, meaning and what to do.",
};

const WHERE: Record<string, string> = {
  api: "every endpoint",
  "api-input": "endpoints with parameters or a body",
  "api-body": "every POST",
  "api-path": "endpoints with an id in the path",
  "api-scope": "endpoints that need a scope",
  "api-idempotent": "endpoints that take `Idempotency-Key`",
  "api-list": "list endpoints",
  "api-routing": "unknown paths and methods",
  dashboard: "the dashboard",
  cli: "the operator CLI (`svc`)",
};

/** Where a code occurs; `api-declared` names the endpoints whose procedure declares it. */
const where = (code: ErrorCode, w: ErrorWhere) =>
  w === "api-declared"
    ? declaringOperations(code)
        .map((op) => `\`${op}\``)
        .join(", ")
    : (WHERE[w] ?? `\`${w}\``);

/**
 * /docs/errors: the error catalog (server/lib/error-catalog.ts), one section per type. Each
 * section's id is the type and each code's row is `code-<code>`, so `error.doc_url`
 * (`<origin>/docs/errors#code-<code>`, D29) lands on the code.
 */
export default async function ErrorsPage() {
  const origin = await requestOrigin();
  const example = {
    error: {
      type: "invalid_request",
      code: "parameter_invalid",
      message: "color: must be a hex color #rrggbb",
      param: "color",
      doc_url: errorDocUrl(origin, "parameter_invalid"),
    },
  };
  return (
    <main className="docs-page">
      <h1>Errors</h1>
      <p>
        Every error answers with the HTTP status of its <code>type</code> and this body. <code>code</code> is stable and more specific than{" "}
        <code>type</code>; <code>param</code> names the parameter at fault in dotted form (<code>to.phone</code>, <code>tags.0</code>), or
        is null; <code>doc_url</code> links to the row of the code below. <code>message</code> is for people and may change: branch on{" "}
        <code>type</code> and <code>code</code>. New codes may appear within <code>/v1</code>: handle an unknown code by its type.
      </p>
      <pre className="docs-code" tabIndex={0}>
        {JSON.stringify(example, null, 2)}
      </pre>

      <nav aria-label="Error types" className="docs-toc">
        <table>
          <thead>
            <tr>
              <th scope="col">type</th>
              <th scope="col">HTTP status</th>
              <th scope="col">meaning</th>
            </tr>
          </thead>
          <tbody>
            {ERROR_TYPES.map((t) => (
              <tr key={t.type}>
                <th scope="row">
                  <a href={`#${t.type}`}>
                    <code>{t.type}</code>
                  </a>
                </th>
                <td>{t.statuses.join(" or ")}</td>
                <td>{t.title}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </nav>

      {ERROR_TYPES.map((t) => {
        const codes = codesOfType(t.type);
        return (
          <section key={t.type} id={t.type} className="docs-error-type" aria-labelledby={`${t.type}-title`}>
            <h2 id={`${t.type}-title`}>
              <code>{t.type}</code> <span className="docs-status">{t.statuses.join(" or ")}</span>
            </h2>
            <p className="docs-lead">{t.title}</p>
            <dl>
              <dt>What happened</dt>
              <dd>
                <Markdown text={t.description} />
              </dd>
              <dt>What to do</dt>
              <dd>
                <Markdown text={t.action} />
              </dd>
            </dl>
            {codes.length > 0 ? (
              <div className="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">code</th>
                      <th scope="col">status</th>
                      <th scope="col">meaning</th>
                      <th scope="col">where</th>
                    </tr>
                  </thead>
                  <tbody>
                    {codes.map((c) => (
                      <tr key={c.code} id={`code-${c.code}`}>
                        <th scope="row">
                          <code>{c.code}</code>
                        </th>
                        <td>{codeStatus(c)}</td>
                        <td>
                          <Markdown text={c.description} />
                        </td>
                        <td>
                          <Markdown text={c.where.map((w) => where(c.code, w)).join(", ")} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p className="muted">No specific code yet: the type alone tells what happened.</p>
            )}
          </section>
        );
      })}
    </main>
  );
}
