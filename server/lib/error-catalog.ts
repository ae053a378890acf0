// Every error the service answers, in one place (D29): the spec's error types with their
// HTTP status, and every `code` thrown anywhere in server/. `new AppError(code, …)`
// (errors.ts) takes the code's type and status from here, so a code missing from the catalog
// does not compile. The OpenAPI document (server/api/openapi.ts) takes its error responses and
// examples from this file, and /docs/errors renders it; `error.doc_url`
// (`<origin>/docs/errors#code-<code>`) lands on the row of the code.

/** The spec's error types and the HTTP status each is answered with. */
export const ERROR_STATUS = {
  authentication: 401,
  forbidden: 403,
  invalid_request: 400,
  not_found: 404,
  conflict: 409,
  rate_limit: 429,
  quota_exceeded: 403,
  api_error: 500,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

export type ErrorTypeDoc = {
  type: ErrorType;
  /** Every status the type is answered with; the first is ERROR_STATUS's. */
  statuses: readonly number[];
  title: string;
  /** What happened. */
  description: string;
  /** What the caller should do. */
  action: string;
};

export const ERROR_TYPES: readonly ErrorTypeDoc[] = [
  {
    type: "authentication",
    statuses: [ERROR_STATUS.authentication],
    title: "Authentication failed",
    description: "The request has no API key, or the key is unknown, malformed or revoked.",
    action:
      "Send `Authorization: Bearer <key>` with an active `svc_test_…` or `svc_live_…` key. Keys are created in the dashboard; a revoked key never works again, so create a new one.",
  },
  {
    type: "forbidden",
    statuses: [ERROR_STATUS.forbidden],
    title: "Forbidden",
    description:
      "The key is valid but may not do this: it lacks the endpoint's scope (the message names it), the workspace's plan does not include API access, or a live key was used from a browser.",
    action:
      "Create a key with the scope the message names, upgrade the plan, or call the API from your backend (test keys may be used from a browser).",
  },
  {
    type: "invalid_request",
    statuses: [ERROR_STATUS.invalid_request, 422, 413, 405],
    title: "Invalid request",
    description:
      "The request is malformed or a value is invalid; `param` names the parameter at fault in dotted form, such as `to.phone`. The status is 422 when an `Idempotency-Key` is reused with a different body, 413 when a dashboard request body is too large, and 405 when the path does not take the method (the `Allow` header lists those it takes).",
    action:
      "Fix the parameter named by `param` (the message says what is wrong) and send the request again; retrying it unchanged fails the same way.",
  },
  {
    type: "not_found",
    statuses: [ERROR_STATUS.not_found],
    title: "Not found",
    description:
      "No such endpoint, or the resource does not exist. Another workspace's resources, and messages created with a key of the other mode, are not found either.",
    action: "Check the id, the path, and that the key belongs to the right workspace and mode.",
  },
  {
    type: "conflict",
    statuses: [ERROR_STATUS.conflict],
    title: "Conflict",
    description:
      "The request conflicts with the current state: for example a name or key that already exists, or a request with the same `Idempotency-Key` still in progress. `code` and `param` tell which.",
    action:
      "Change the request or the state it conflicts with. For a request still in progress, retry a moment later with the same `Idempotency-Key`.",
  },
  {
    type: "rate_limit",
    statuses: [ERROR_STATUS.rate_limit],
    title: "Rate limit exceeded",
    description:
      "The key made more requests than its limit (120 per rolling 60 seconds by default) allows. The response carries `Retry-After`.",
    action:
      "Wait `Retry-After` seconds before retrying. Every response carries `RateLimit-Remaining` and `RateLimit-Reset` (whole seconds), so a client can slow down before it is refused.",
  },
  {
    type: "quota_exceeded",
    statuses: [ERROR_STATUS.quota_exceeded],
    title: "Quota exceeded",
    description:
      "A live send would go past the workspace's daily limit for the channel (UTC day) or its monthly limit. Test keys never reach a quota.",
    action:
      "Wait for the next UTC day or calendar month, or raise the limits by changing the plan. `GET /usage` reports the counts and limits.",
  },
  {
    type: "api_error",
    statuses: [ERROR_STATUS.api_error, 503],
    title: "Internal error",
    description:
      "Something unexpected failed on the service's side (`500`), or its database cannot be reached for a moment (`503`). Nothing is stored for `Idempotency-Key`, so the request may be retried.",
    action:
      "Retry with exponential backoff, with the same `Idempotency-Key` where the endpoint supports one. If it persists, quote the `Request-Id` response header to support.",
  },
];

/**
 * Where a code can occur, so the OpenAPI document can list it on the right operations:
 * `api` every endpoint; `api-input` endpoints with parameters or a body; `api-body` every
 * POST; `api-path` endpoints with a path parameter; `api-scope` endpoints needing a scope;
 * `api-idempotent` endpoints honouring `Idempotency-Key`; `api-list` paginated lists;
 * `api-routing` an unknown path or method; `api-declared` the endpoints whose procedure
 * declares the code in `meta.errors` (D56). `dashboard` and `cli` are not answered by the
 * public API.
 */
export type ErrorWhere =
  | "api"
  | "api-input"
  | "api-body"
  | "api-path"
  | "api-scope"
  | "api-idempotent"
  | "api-list"
  | "api-routing"
  | "api-declared"
  | "dashboard"
  | "cli";

/** A catalog entry; its code is its key in ERROR_CATALOG. */
type ErrorCodeEntry = {
  type: ErrorType;
  /** When it differs from the type's usual status (422 for `idempotency_key_reused`). */
  status?: number;
  description: string;
  /** A typical message; `{scope}` and `{resource}` are filled in per endpoint. */
  message: string;
  /** A typical `param`; `{param}` is filled in per endpoint. */
  param?: string | null;
  where: readonly ErrorWhere[];
};

export const ERROR_CATALOG = {
  // authentication
  missing_api_key: {
    type: "authentication",
    description: "No `Authorization: Bearer <key>` header was sent.",
    message: "No API key provided. Send it as `Authorization: Bearer svc_live_…`.",
    where: ["api"],
  },
  invalid_api_key: {
    type: "authentication",
    description: "The key is unknown, malformed (not `svc_test_` or `svc_live_` and 32 or more base62 characters) or revoked.",
    message: "Invalid API key: it is unknown, malformed or revoked.",
    where: ["api"],
  },
  // forbidden
  missing_scope: {
    type: "forbidden",
    description: "The key lacks the scope the endpoint needs; the message names it.",
    message: "This API key lacks the scope `{scope}` that this endpoint needs.",
    where: ["api-scope"],
  },
  plan_without_api_access: {
    type: "forbidden",
    description: "The workspace's plan does not include API access (the free plan); every endpoint answers so.",
    message: "This workspace's plan does not include API access. Upgrade the plan to use the API.",
    where: ["api"],
  },
  live_key_in_browser: {
    type: "forbidden",
    description: "A live key was sent with an `Origin` header, that is from a browser. Test keys are accepted from browsers.",
    message: "Live keys are refused from browsers (the request has an Origin header). Call the API from your backend, or use a test key.",
    where: ["api"],
  },
  test_key_required: {
    type: "forbidden",
    description:
      "`GET /webhook-events/stream` and `POST /webhook-events/trigger` serve test-mode events to test keys only; a live key is refused.",
    message: "This endpoint serves test-mode events: call it with a test key (svc_test_…).",
    where: ["api-declared"],
  },
  role_required: {
    type: "forbidden",
    description: "Dashboard: the signed-in user's role in the workspace does not allow the action (support users may only read).",
    message: "This action needs the admin role.",
    where: ["dashboard"],
  },
  forbidden: {
    type: "forbidden",
    description: "Dashboard: the signed-in user is not a member of the workspace being acted on.",
    message: "Choose a workspace you are a member of.",
    where: ["dashboard"],
  },
  // invalid_request
  parameter_missing: {
    type: "invalid_request",
    description:
      "A required parameter is absent; `param` names it. Also answered when neither `phone` nor `email` is given where one is needed (`param` = `phone`).",
    message: "{param}: is required",
    param: "{param}",
    where: ["api-input"],
  },
  parameter_invalid: {
    type: "invalid_request",
    description:
      "A parameter has a wrong type or value (format, length, range, allowed values); `param` names it and the message says why.",
    message: "{param}: must not be empty",
    param: "{param}",
    where: ["api-input"],
  },
  unknown_parameter: {
    type: "invalid_request",
    description:
      "The body or the query string has a parameter the operation does not know, such as a misspelt name, a misspelt filter (`?stauts=failed`) or an `email` object on a WhatsApp message; `param` is its dotted path or its name. Nothing is ignored silently.",
    message: "{param} is not a known parameter of this request.",
    param: "{param}",
    where: ["api-input"],
  },
  invalid_json: {
    type: "invalid_request",
    description: "The body of a POST is not valid JSON, is not a JSON object, or nests deeper than 32 levels.",
    message: "The request body is not valid JSON.",
    where: ["api-body", "dashboard"],
  },
  invalid_text: {
    type: "invalid_request",
    description:
      "A text value (or an object key) holds a character that cannot be stored: a NUL character or an unpaired UTF-16 surrogate. `param` names the field in dotted form, query and path parameters included.",
    message: "{param} contains a character that cannot be stored: a NUL character or an unpaired UTF-16 surrogate.",
    param: "{param}",
    where: ["api-input", "dashboard"],
  },
  body_too_large: {
    type: "invalid_request",
    description: "The request body is larger than 256 KiB (5 MiB for `POST /messages/batch`).",
    message: "The request body is larger than 256 KiB.",
    where: ["api-body"],
  },
  request_too_large: {
    type: "invalid_request",
    status: 413,
    description: "Dashboard: the request body is larger than the dashboard accepts (16 KiB for sign-in, 1 MiB otherwise).",
    message: "The request body is larger than 1024 KiB.",
    where: ["dashboard"],
  },
  invalid_cursor: {
    type: "invalid_request",
    description: "The `after` query parameter of a list is not the id of an item of that list.",
    message: "`after` is not the id of an item of this list.",
    param: "after",
    where: ["api-list"],
  },
  invalid_phone: {
    type: "invalid_request",
    description:
      "A phone number is not valid, or has no country code while the workspace has no default country. Numbers are stored in E.164; spaces, dashes, dots and parentheses are accepted on input.",
    message: "phone is not a valid phone number.",
    param: "phone",
    where: ["api-declared"],
  },
  invalid_whatsapp_user_id: {
    type: "invalid_request",
    description: "A WhatsApp user id is not two letters, a dot, then up to 128 letters and digits.",
    message: "whatsapp_user_id is not a WhatsApp user id.",
    param: "whatsapp_user_id",
    where: ["api-declared"],
  },
  invalid_email: {
    type: "invalid_request",
    description: "An e-mail address is not a single, syntactically valid mailbox.",
    message: "email is not a valid e-mail address.",
    param: "email",
    where: ["api-declared"],
  },
  recipient_missing_address: {
    type: "invalid_request",
    description:
      "The recipient has no address for the channel: no phone for `whatsapp` (`param` = `to.phone`), no e-mail for `email` (`param` = `to.email`) (spec Send message rule 1).",
    message: "The recipient has no phone number.",
    param: "to.phone",
    where: ["api-declared"],
  },
  missing_variable: {
    type: "invalid_request",
    description:
      "A `{{placeholder}}` of the message has no value in `variables`, the contact's custom fields or the contact itself; `param` is `variables.<name>`.",
    message: "The placeholder {{code}} has no value: give it in variables.code.",
    param: "variables.code",
    where: ["api-declared"],
  },
  rendered_too_long: {
    type: "invalid_request",
    description:
      "With its placeholders filled, a text is over its limit: `whatsapp.body` 4096 characters, `email.subject` 998 characters, `email.html` 512 KiB; `param` is the field. Nothing was sent.",
    message: "whatsapp.body is longer than 4096 characters once its placeholders are filled.",
    param: "whatsapp.body",
    where: ["api-declared"],
  },
  recipient_opted_out: {
    type: "conflict",
    description: "The recipient opted out of the channel (`opt_out_whatsapp`, `opt_out_email` or `opt_out_sms`); `param` is `to`.",
    message: "The recipient opted out of whatsapp messages.",
    param: "to",
    where: ["api-declared"],
  },
  recipient_suppressed: {
    type: "conflict",
    description:
      "A live e-mail to an address on the workspace's suppression list: it bounced permanently, its owner reported your mail as spam, or you suppressed it. `param` is `to.email`. Remove it with `DELETE /suppressions/{email}` only when you know the address works again.",
    message: "The recipient's address is suppressed (hard_bounce): e-mail to it is not sent.",
    param: "to.email",
    where: ["api-declared"],
  },
  whatsapp_window_closed: {
    type: "conflict",
    description:
      "A free-form WhatsApp message (`whatsapp.body` or `whatsapp.media_url`) to a contact whose 24-hour window is closed: the contact has not written to you in the last 24 hours. The message says when the window closed, or that it never opened. With a test key, the reserved number `+15550100004` always answers this.",
    message:
      "The contact's 24-hour WhatsApp window closed at 2026-11-20T14:32:00.000Z. Outside the window only a template can be sent: give whatsapp.template.",
    param: "whatsapp.body",
    where: ["api-declared"],
  },
  message_not_cancelable: {
    type: "conflict",
    description:
      "The message cannot be canceled: it was already handed to the provider (or is being handed over right now), it already reached another status, or it was canceled before. `param` is `id`.",
    message: "The message is already sent: only a message that has not been handed to the provider can be canceled.",
    param: "id",
    where: ["api-declared"],
  },
  not_inbound: {
    type: "conflict",
    description:
      "`POST /messages/{id}/read` on a message that is not an inbound WhatsApp message (a message you sent, or an e-mail): only messages received on WhatsApp can be marked read. `param` is `id`.",
    message: "The message is outbound: only an inbound WhatsApp message can be marked read.",
    param: "id",
    where: ["api-declared"],
  },
  read_not_sent: {
    type: "conflict",
    description:
      "`POST /messages/{id}/read`: the WhatsApp Cloud API did not take the read receipt (its answer is in the message), or the message's channel is disconnected. Nothing was recorded; retry once the channel works.",
    message: "The WhatsApp Cloud API did not take the read receipt: Invalid OAuth access token. (code 190).",
    param: "id",
    where: ["api-declared"],
  },
  template_not_found: {
    type: "invalid_request",
    description:
      "`whatsapp.template` names no template of that name and language on the WhatsApp channel that would send the message. `GET /whatsapp/templates` lists them.",
    message: "No template named order_shipped in language en_US on the WhatsApp channel that would send this message.",
    param: "whatsapp.template.name",
    where: ["api-declared"],
  },
  template_not_approved: {
    type: "conflict",
    description: "The template exists but is not `approved` (it is pending, rejected, paused or disabled at Meta).",
    message: "The template order_shipped (en_US) is paused; only approved templates can be sent.",
    param: "whatsapp.template.name",
    where: ["api-declared"],
  },
  template_sync_failed: {
    type: "conflict",
    description:
      "The WhatsApp Cloud API could not be reached, or refused to list the business account's templates; the stored copy is unchanged.",
    message: "The Cloud API answered 401: Invalid OAuth access token.",
    param: "channel_id",
    where: ["dashboard", "cli"],
  },
  waba_id_missing: {
    type: "invalid_request",
    description:
      "The WhatsApp channel was connected without its business account id, so it has no templates to sync: connect it again with `waba_id`.",
    message: "The channel has no WhatsApp Business account id: connect it again with waba_id.",
    param: "channel_id",
    where: ["dashboard", "cli"],
  },
  marketing_opted_out: {
    type: "conflict",
    description:
      "A marketing template to a contact that stopped marketing messages on WhatsApp (`whatsapp_marketing_opt_out`); `param` is `to`. Utility and authentication templates still go.",
    message: "The recipient stopped marketing messages on WhatsApp: send a utility template instead.",
    param: "to",
    where: ["api-declared"],
  },
  channel_paused: {
    type: "conflict",
    description:
      "A live send on a channel that WhatsApp stopped (a payment problem or a policy block): it is paused until resumed in the dashboard or with `svc channel resume`; `param` is `channel`.",
    message: "The whatsapp channel ch_… is paused (payment): fix it with Meta, then resume the channel.",
    param: "channel",
    where: ["api-declared"],
  },
  channel_not_connected: {
    type: "conflict",
    description: "A live key sends on a channel type the workspace has not connected; connect it in the dashboard.",
    message: "No whatsapp channel is connected: connect one in the dashboard first.",
    param: "channel",
    where: ["api-declared"],
  },
  daily_limit_reached: {
    type: "quota_exceeded",
    description: "A live send when the workspace has reached its daily limit for the channel (UTC day). Test keys never reach it.",
    message: "The daily limit of 1000 whatsapp messages is reached for 2026-11-21 (UTC).",
    param: "channel",
    where: ["api-declared"],
  },
  monthly_limit_reached: {
    type: "quota_exceeded",
    description: "A live send when the workspace has reached its monthly limit (`limit` of GET /usage).",
    message: "The monthly limit of 10000 messages is reached for 2026-11.",
    param: "channel",
    where: ["api-declared"],
  },
  unknown_tag: {
    type: "invalid_request",
    description:
      "A tag id in a contact's `tags` is not a tag of this workspace; `param` is `tags.<index>`. In a flow definition, `param` is the step's path, e.g. `steps.2.if.has_tag`.",
    message: "tags.0: no tag tag_0mwq18yo3jJFvnIzUvqf4q in this workspace.",
    param: "tags.0",
    where: ["api-declared", "dashboard", "cli"],
  },
  unknown_field: {
    type: "invalid_request",
    description:
      "A key in a contact's `fields` is not a custom field of this workspace; `param` is `fields.<key>`. In a flow definition, `param` is the step's path, e.g. `steps.3.key`.",
    message: "fields.plan: no custom field with this key in this workspace.",
    param: "fields.plan",
    where: ["api-declared", "dashboard", "cli"],
  },
  invalid_field_value: {
    type: "invalid_request",
    description:
      "A value in a contact's `fields` does not fit the field's type: a number, `true` or `false`, a `YYYY-MM-DD` date, or text; `param` is `fields.<key>`.",
    message: "fields.birthday must be a date written YYYY-MM-DD.",
    param: "fields.birthday",
    where: ["api-declared"],
  },
  invalid_idempotency_key: {
    type: "invalid_request",
    description: "The `Idempotency-Key` header is empty or longer than 255 characters.",
    message: "Idempotency-Key must be 1 to 255 characters.",
    param: "Idempotency-Key",
    where: ["api-idempotent"],
  },
  idempotency_key_reused: {
    type: "invalid_request",
    status: 422,
    description:
      "The `Idempotency-Key` was already used within 24 hours, on this endpoint and with a key of this mode, with a different body; bodies are compared as canonical JSON.",
    message: "This Idempotency-Key was already used with a different request body. Use a new key for a new request.",
    param: "Idempotency-Key",
    where: ["api-idempotent"],
  },
  method_not_allowed: {
    type: "invalid_request",
    status: 405,
    description: "The path exists but not with this HTTP method; the `Allow` header and the message list the allowed ones.",
    message: "DELETE is not allowed on /api/v1/tags. Allowed: GET, POST.",
    where: ["api-routing"],
  },
  invalid_workspace: {
    type: "invalid_request",
    description: "Operator CLI and dashboard: a workspace setting is invalid (name, plan, limits, default country); `param` names it.",
    message: "defaultCountry: must be an ISO 3166 alpha-2 country code",
    param: "defaultCountry",
    where: ["cli", "dashboard"],
  },
  workspace_not_found: {
    type: "invalid_request",
    description: "Operator CLI and dashboard: no workspace has the identifier given.",
    message: "No workspace with identifier acme-k3j9x2.",
    param: "workspace",
    where: ["cli", "dashboard"],
  },
  private_address: {
    type: "invalid_request",
    description:
      "Dashboard and operator CLI: a webhook endpoint's `url` or a channel's provider host (`api_base_url`, `smtp_url`) is or resolves to a loopback, private, link-local, carrier-grade NAT or cloud metadata address. Allowed only when the operator sets `ALLOW_PRIVATE_WEBHOOKS=1`.",
    message:
      "api_base_url: 127.0.0.1 is a loopback or private address (127.0.0.1); set ALLOW_PRIVATE_WEBHOOKS=1 to allow it (development, tests).",
    param: "api_base_url",
    where: ["dashboard", "cli", "api-declared"],
  },
  unresolvable_host: {
    type: "invalid_request",
    description:
      "Dashboard and operator CLI: a webhook endpoint's host or a channel's provider host does not resolve in DNS, so it cannot be checked or reached.",
    message: "smtp_url: the host smtp.example.invalid does not resolve.",
    param: "smtp_url",
    where: ["dashboard", "cli", "api-declared"],
  },
  flow_not_active: {
    type: "conflict",
    description: "`POST /flows/{flow_id}/enroll`: the flow is `draft`, `paused` or `archived`; only an `active` flow accepts enrollment.",
    message: "The flow is paused; only an active flow accepts enrollment.",
    param: "flow_id",
    where: ["api-declared"],
  },
  already_enrolled: {
    type: "conflict",
    description:
      "`POST /flows/{flow_id}/enroll`: the contact already has an active run of the key's mode in this flow, and the flow does not allow re-entry.",
    message: "The contact already has an active run in this flow, which does not allow re-entry.",
    param: "to",
    where: ["api-declared"],
  },
  unknown_channel: {
    type: "invalid_request",
    description: "Flow documents: a `send` step's `channel_id` is not a connected channel of its type.",
    message: "steps.0.channel_id: no connected whatsapp channel with this id.",
    param: "steps.0.channel_id",
    where: ["api-declared", "dashboard", "cli"],
  },
  invalid_flow_status: {
    type: "conflict",
    description:
      "A flow status change that the flow lifecycle does not allow (draft → active ↔ paused → archived; archived is final), or a new flow created `archived`.",
    message: "An archived flow cannot become active.",
    param: "status",
    where: ["api-declared", "dashboard", "cli"],
  },
  last_admin: {
    type: "conflict",
    description:
      "Dashboard and `svc user create`: the change would leave the workspace without an admin (removing or demoting its last admin).",
    message: "This is the workspace's last admin. Make another member an admin first.",
    param: "role",
    where: ["dashboard", "cli"],
  },
  already_member: {
    type: "conflict",
    description: "Dashboard: the person added to the team is already a member of the workspace; change their role instead.",
    message: "ana@example.com is already a member of this workspace.",
    param: "email",
    where: ["dashboard"],
  },
  flow_archived: {
    type: "conflict",
    description: "An archived flow cannot be edited: create a new flow from its document instead.",
    message: "An archived flow cannot be changed.",
    param: "flow_id",
    where: ["api-declared", "dashboard"],
  },
  in_use: {
    type: "conflict",
    description:
      "`DELETE /tags/{id}` or `DELETE /custom-fields/{id}`: an active or paused flow names the tag or field in its current document " +
      "(a branch's condition, a tag step, a set_field step). Change or archive the flow first.",
    message: "The flow flow_0mwq18yo3jJFvnIzUvqf4q (Welcome) names this tag at steps.2.if.has_tag; change or archive it first.",
    param: "id",
    where: ["api-declared"],
  },
  run_not_active: {
    type: "conflict",
    description: "Dashboard: unenrolling a run that is already completed, stopped or failed.",
    message: "The run is already completed.",
    param: "run_id",
    where: ["dashboard"],
  },
  endpoint_disabled: {
    type: "conflict",
    description: "A test event or a redelivery was asked of a disabled webhook endpoint. Enable the endpoint first.",
    message: "The endpoint is disabled; enable it to send it events.",
    param: "id",
    where: ["dashboard", "api-declared"],
  },
  limit_reached: {
    type: "conflict",
    description:
      "`POST /webhook-endpoints`: the workspace already has 50 webhook endpoints, the most it may hold. Delete one you no longer use " +
      "(an endpoint can receive several events) before adding another.",
    message: "This workspace already has 50 webhook endpoints, the most it may hold. Delete one before adding another.",
    param: null,
    where: ["dashboard", "cli", "api-declared"],
  },
  delivery_pending: {
    type: "conflict",
    description: "A redelivery was asked of a webhook delivery that is still pending; it will be attempted again on its own.",
    message: "This delivery is still pending: it will be attempted again on its own.",
    param: "id",
    where: ["dashboard", "api-declared"],
  },
  // not_found
  resource_missing: {
    type: "not_found",
    description:
      "The resource does not exist in this workspace (or, for messages, in this key's mode); `param` names the parameter that carried the id.",
    message: "No such {resource}.",
    param: "{param}",
    where: ["api-path"],
  },
  route_not_found: {
    type: "not_found",
    description: "No endpoint has this path. Paths are relative to `/api/v1`.",
    message: "No such endpoint: GET /api/v1/tag.",
    where: ["api-routing"],
  },
  // conflict
  idempotency_key_in_use: {
    type: "conflict",
    description:
      "A request with the same `Idempotency-Key` is still being processed. Retry once it has finished to get its stored response.",
    message: "A request with this Idempotency-Key is still in progress. Retry in a moment.",
    param: "Idempotency-Key",
    where: ["api-idempotent"],
  },
  tag_name_taken: {
    type: "conflict",
    description: "The workspace already has a tag of that name, compared case-insensitively after trimming.",
    message: 'A tag named "VIP" already exists.',
    param: "name",
    where: ["api-declared"],
  },
  field_key_taken: {
    type: "conflict",
    description: "The workspace already has a custom field with this `key`.",
    message: 'A custom field with key "birthday" already exists.',
    param: "key",
    where: ["api-declared"],
  },
  phone_taken: {
    type: "conflict",
    description: "The matched contact would get a phone number that another contact of the workspace already has.",
    message: "Another contact already has this phone number.",
    param: "phone",
    where: ["api-declared"],
  },
  whatsapp_user_id_taken: {
    type: "conflict",
    description: "The matched contact would get a WhatsApp user id that another contact of the workspace already has.",
    message: "Another contact already has this WhatsApp user id.",
    param: "whatsapp_user_id",
    where: ["api-declared"],
  },
  email_taken: {
    type: "conflict",
    description: "The matched contact would get an e-mail address that another contact of the workspace already has.",
    message: "Another contact already has this e-mail address.",
    param: "email",
    where: ["api-declared"],
  },
  // rate_limit
  rate_limited: {
    type: "rate_limit",
    description:
      "Too many requests with this key in the rolling 60-second window; requests without a valid key are limited per client address.",
    message: "Too many requests: the limit is 120 per rolling 60 seconds. Retry after 12 s.",
    where: ["api"],
  },
  too_many_streams: {
    type: "rate_limit",
    description: "`GET /webhook-events/stream`: this key already has 5 streams open. Close one (stop an `svc listen`) first.",
    message: "This key already has 5 event streams open; close one before opening another.",
    where: ["api-declared"],
  },
  // api_error
  internal_error: {
    type: "api_error",
    description: "An unexpected failure. It is logged with the request id; no detail is leaked.",
    message: "An unexpected error occurred. Quote request id req_7Hq2mZ9xK3pL0aB4cD5e to support.",
    where: ["api"],
  },
  service_unavailable: {
    type: "api_error",
    status: 503,
    description:
      "The service's database could not be reached (a restart, an outage). The request was not carried out; it answers rather than waiting for the database.",
    message: "The service is briefly unavailable. Retry in a few seconds.",
    where: ["api"],
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** The codes of one error type, such as the `conflict` codes `conflict()` of errors.ts takes. */
export type ErrorCodeOf<T extends ErrorType> = { [C in ErrorCode]: (typeof ERROR_CATALOG)[C]["type"] extends T ? C : never }[ErrorCode];

export type ErrorCodeDoc = ErrorCodeEntry & { code: ErrorCode };

/** The catalog as a list, in its order: for /docs/errors and the OpenAPI document. */
export const ERROR_CODES: readonly ErrorCodeDoc[] = Object.entries(ERROR_CATALOG).map(([code, entry]) => ({
  code: code as ErrorCode,
  ...entry,
}));

export function errorTypeDoc(type: ErrorType): ErrorTypeDoc {
  const doc = ERROR_TYPES.find((t) => t.type === type);
  if (!doc) throw new Error(`error type ${type} is missing from the catalog`);
  return doc;
}

export function codesOfType(type: ErrorType): ErrorCodeDoc[] {
  return ERROR_CODES.filter((c) => c.type === type);
}

/** The status a code is answered with. */
export function codeStatus(code: Pick<ErrorCodeEntry, "type" | "status">): number {
  return code.status ?? ERROR_STATUS[code.type];
}

/** `error.doc_url` of D29: the anchor of the code's row on /docs/errors. */
export function errorDocUrl(appUrl: string, code: ErrorCode): string {
  return `${appUrl}/docs/errors#code-${code}`;
}
