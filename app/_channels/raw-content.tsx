// A message's content whose shape its channel's page part does not know: shown as stored.
export function RawContent({ content }: { content: unknown }) {
  return (
    <div className="panel">
      <p className="muted">This content has an unexpected shape; here it is as stored.</p>
      <pre className="json">{JSON.stringify(content, null, 2)}</pre>
    </div>
  );
}
