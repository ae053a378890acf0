// The worked journeys of /docs/journeys: each flow document and the API calls that drive it,
// shown on the page as written here and run as written by e2e/api/docs-journeys.test.ts.

export const CART_FLOW = {
  name: "Abandoned cart",
  status: "active",
  trigger: { event: "cart_abandoned", where: { property: "total", gte: 20 }, key: "{{event.cart_id}}" },
  goal: { event: "order_placed", match: { cart_id: "{{run.key}}" } },
  steps: [
    { type: "wait", duration: "PT1H" },
    {
      type: "send",
      channel: "whatsapp",
      whatsapp: { body: "Hi {{name}}, your {{event.items.0.name}} is still in your cart: {{event.url}}" },
    },
    {
      type: "wait_for",
      message: "replied",
      timeout: "P1D",
      on_timeout: [
        {
          type: "send",
          channel: "email",
          email: {
            subject: "Your cart is waiting",
            html: '<p>Your cart is still here: <a href="{{event.url}}">finish your order</a>.</p>',
          },
        },
      ],
    },
  ],
} as const;

export const CART_ABANDONED = {
  name: "cart_abandoned",
  to: { phone: "+5511987654321" },
  id: "cart_81f2:abandoned",
  properties: { cart_id: "cart_81f2", total: 89.9, url: "https://shop.example/cart/81f2", items: [{ name: "Trail shoes", qty: 1 }] },
} as const;

export const ORDER_PLACED = {
  name: "order_placed",
  to: { phone: "+5511987654321" },
  properties: { cart_id: "cart_81f2", order_id: "ord_5521" },
} as const;

export const REMINDER_FLOW = {
  name: "Payment reminder",
  status: "active",
  trigger: { event: "invoice_due", key: "{{event.invoice_id}}" },
  steps: [
    {
      type: "send",
      channel: "whatsapp",
      whatsapp: { body: "Invoice {{event.invoice_id}} of {{event.amount}} is due on {{event.due_date}}: {{event.pay_url}}" },
    },
    {
      type: "wait_for",
      event: "invoice_paid",
      match: { invoice_id: "{{run.key}}" },
      timeout: "P3D",
      lookback: "PT1H",
      on_event: [{ type: "send", channel: "whatsapp", whatsapp: { body: "Thank you: invoice {{wait.invoice_id}} is paid." } }],
      on_timeout: [
        { type: "send", channel: "whatsapp", whatsapp: { body: "Invoice {{run.key}} is now overdue. Pay here: {{event.pay_url}}" } },
      ],
    },
  ],
} as const;

export const INVOICE_DUE = {
  name: "invoice_due",
  to: { phone: "+5511912345678" },
  id: "inv_2026_0042:due",
  properties: { invoice_id: "inv_2026_0042", amount: "R$ 149,90", due_date: "2026-12-05", pay_url: "https://pay.example/inv_2026_0042" },
} as const;

export const INVOICE_PAID = {
  name: "invoice_paid",
  to: { phone: "+5511912345678" },
  id: "inv_2026_0042:paid",
  properties: { invoice_id: "inv_2026_0042" },
} as const;

/** A `curl` of POST /events with `body`, as the page shows it. */
export const curlEvent = (body: unknown) =>
  `curl https://svc.example.com/api/v1/events -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '${JSON.stringify(body, null, 2)}'`;
