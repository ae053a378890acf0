"use client";

import NextLink from "next/link";
import { useState, type ComponentProps } from "react";

type Props = Omit<ComponentProps<typeof NextLink>, "prefetch">;

/**
 * The dashboard's links. A link's page is fetched ahead when the pointer rests on it, a finger
 * touches it or it takes the keyboard's focus, so following it is still immediate; a page that
 * merely shows links fetches nothing more. By default Next.js fetches every link on the screen
 * as it appears: the navigation and a table of 25 contacts made 13 to 37 more server renders
 * for each page a person opened (Next.js' hover-triggered prefetch pattern).
 */
export function Link({ onMouseEnter, onTouchStart, onFocus, ...props }: Props) {
  const [intent, setIntent] = useState(false);
  return (
    <NextLink
      {...props}
      prefetch={intent ? null : false}
      onMouseEnter={(e) => {
        setIntent(true);
        onMouseEnter?.(e);
      }}
      onTouchStart={(e) => {
        setIntent(true);
        onTouchStart?.(e);
      }}
      onFocus={(e) => {
        setIntent(true);
        onFocus?.(e);
      }}
    />
  );
}
