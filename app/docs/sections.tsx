import type { ReactNode } from "react";

// A long docs page's sections and its table of contents, from one list of ids and titles.

/** The page's contents: a link to each section, below the lead paragraph. */
export function DocsToc({ sections }: { sections: Record<string, string> }) {
  return (
    <nav aria-label="On this page" className="docs-toc docs-contents">
      <h2>On this page</h2>
      <ol>
        {Object.entries(sections).map(([id, title]) => (
          <li key={id}>
            <a href={`#${id}`}>{title}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** One section of the page, its heading being its title in `sections`. */
export function makeSection<S extends Record<string, string>>(sections: S) {
  return function Section({ id, children }: { id: keyof S & string; children: ReactNode }) {
    return (
      <section id={id} aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{sections[id]}</h2>
        {children}
      </section>
    );
  };
}
