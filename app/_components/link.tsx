"use client";

import NextLink from "next/link";
import { useEffect, useRef, useState, type ComponentProps } from "react";

type Props = Omit<ComponentProps<typeof NextLink>, "prefetch">;

/** How long the pointer or the keyboard's focus rests on a link before its page is fetched ahead. */
const INTENT_MS = 65;

/**
 * The dashboard's links. A link's page is fetched ahead once the pointer rests on it or it
 * keeps the keyboard's focus for a moment, or a finger touches it, so following it is still
 * immediate; a page that merely shows links fetches nothing more. By default Next.js fetches
 * every link on the screen as it appears: the navigation and a table of 25 contacts made 13 to
 * 37 more server renders for each page a person opened (Next.js' hover-triggered prefetch
 * pattern).
 *
 * A pointer that crosses a link, or clicks it at once, starts no fetch ahead: that fetch would
 * start in the same instant as the navigation itself, and while the page's render waited on the
 * database, Next.js then sometimes showed the new page empty, without its loading state, for as
 * long as the wait lasted (1 click in 40 on a loaded machine; none in 80 when the fetch ahead had
 * finished before the click, or when no fetch ahead was made).
 */
export function Link({ onMouseEnter, onMouseLeave, onTouchStart, onFocus, onBlur, onClick, ...props }: Props) {
  const [intent, setIntent] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancel = () => clearTimeout(timer.current);
  const soon = () => {
    cancel();
    timer.current = setTimeout(() => setIntent(true), INTENT_MS);
  };
  useEffect(() => cancel, []);
  return (
    <NextLink
      {...props}
      prefetch={intent ? null : false}
      onMouseEnter={(e) => {
        soon();
        onMouseEnter?.(e);
      }}
      onMouseLeave={(e) => {
        cancel();
        onMouseLeave?.(e);
      }}
      onTouchStart={(e) => {
        setIntent(true);
        onTouchStart?.(e);
      }}
      onFocus={(e) => {
        soon();
        onFocus?.(e);
      }}
      onBlur={(e) => {
        cancel();
        onBlur?.(e);
      }}
      onClick={(e) => {
        cancel();
        onClick?.(e);
      }}
    />
  );
}
