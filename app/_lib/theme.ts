// The dashboard's colour theme: "system" follows the OS preference (prefers-color-scheme),
// "light" and "dark" override it. The choice is kept in this browser (localStorage) and set as
// data-theme on <html> before the first paint by THEME_SCRIPT (app/layout.tsx), so a page never
// flashes in the other scheme.

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_STORAGE_KEY = "svc-theme";

/** Applies a stored choice to <html>: no attribute for "system" (the CSS media query decides). */
export function applyTheme(theme: Theme): void {
  if (theme === "system") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.setAttribute("data-theme", theme);
}

export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return THEMES.includes(value as Theme) ? (value as Theme) : "system";
  } catch {
    return "system";
  }
}

/** Inline in <head>: the stored choice before the page paints (storage may be unavailable). */
export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.setAttribute("data-theme",t)}catch(e){}`;
