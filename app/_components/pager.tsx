type Props = {
  /** The navigation's name, e.g. "Pages of messages". */
  label: string;
  /** The page shown, from 1. */
  page: number;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
};

/** "Previous page", the page number (announced politely) and "Next page" under a cursor-paged list. */
export function Pager({ label, page, hasNext, onPrevious, onNext }: Props) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button" disabled={page === 1} onClick={onPrevious}>
        Previous page
      </button>
      <span aria-live="polite">Page {page}</span>
      <button type="button" className="button" disabled={!hasNext} onClick={onNext}>
        Next page
      </button>
    </nav>
  );
}
