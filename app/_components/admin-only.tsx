/** What support staff see on a page that is for admins only (its procedures refuse them too). */
export function AdminOnly({ title, what }: { title: string; what: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p className="note" role="alert">
        Only admins of this workspace can see {what}. Ask an admin if you need a change.
      </p>
    </>
  );
}
