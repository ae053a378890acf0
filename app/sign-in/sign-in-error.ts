/** The message for next-auth's error code (`CredentialsSignin` for a wrong e-mail or password). */
export function signInError(code: string | undefined): string {
  return code === "CredentialsSignin" ? "Wrong e-mail or password." : "Could not sign in. Please try again.";
}
