"use client";

import { useId, useSyncExternalStore } from "react";
import { applyTheme, storedTheme, THEME_STORAGE_KEY, type Theme } from "@/app/_lib/theme.ts";

const LABEL: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };
const CHANGED = "svc-theme-change";

// The stored choice as React state: changed here or in another tab (the storage event).
function subscribe(onChange: () => void) {
  const fromOtherTab = () => {
    applyTheme(storedTheme());
    onChange();
  };
  window.addEventListener("storage", fromOtherTab);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", fromOtherTab);
    window.removeEventListener(CHANGED, onChange);
  };
}

function choose(theme: Theme) {
  applyTheme(theme);
  try {
    if (theme === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** The colour theme: the system's preference (default), or light or dark for this browser. */
export function ThemeToggle() {
  const id = useId();
  // The server renders "system"; the browser's stored choice follows on hydration.
  const theme = useSyncExternalStore(subscribe, storedTheme, () => "system" as const);
  return (
    <div className="theme-toggle">
      <label htmlFor={id}>Theme</label>
      <select id={id} value={theme} onChange={(event) => choose(event.target.value as Theme)}>
        {(Object.keys(LABEL) as Theme[]).map((value) => (
          <option key={value} value={value}>
            {LABEL[value]}
          </option>
        ))}
      </select>
    </div>
  );
}
