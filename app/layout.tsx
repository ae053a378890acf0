import type { ReactNode } from "react";

export const metadata = { title: "svc", description: "Messaging and journeys service" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
