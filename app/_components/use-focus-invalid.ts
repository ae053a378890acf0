"use client";

import { useEffect, type RefObject } from "react";

/**
 * After a refused submission (`trigger` changes), moves focus to the form's first control
 * marked `aria-invalid`, so its error (its `aria-describedby`) is read out.
 */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, trigger: unknown): void {
  useEffect(() => {
    if (!trigger) return;
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (first instanceof HTMLFieldSetElement ? first.querySelector<HTMLElement>("input") : first)?.focus();
  }, [form, trigger]);
}
