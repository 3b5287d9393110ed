import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { FormAlert } from "~/components/account/form-alert";
import { FormField } from "~/components/account/form-field";
import { Button } from "~/components/ui/button";
import { readForm } from "~/lib/forms.server.ts";
import { requestPasswordReset } from "~/modules/accounts/credentials.server.ts";
import {
  accountText,
  type FieldErrors,
  fieldErrors,
  forgotPasswordSchema,
  formFields,
} from "~/rules/account-schemas.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/forgot-password";

type ActionResult =
  | { kind: "invalid"; fieldErrors: FieldErrors }
  | { kind: "sent"; email: string }
  | { kind: "failed"; message: string };

export async function action({ request }: Route.ActionArgs) {
  const parsed = forgotPasswordSchema.safeParse(formFields(await readForm(request)));
  if (!parsed.success) {
    return data<ActionResult>(
      { kind: "invalid", fieldErrors: fieldErrors(parsed.error) },
      { status: 400 },
    );
  }
  const { auth } = await runtime();
  const result = await requestPasswordReset(auth, request, parsed.data.email);
  // The same answer whether or not an account uses this address.
  if (result.ok) return data<ActionResult>({ kind: "sent", email: parsed.data.email });
  return data<ActionResult>({ kind: "failed", message: result.message }, { status: 503 });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Forgot password",
    description: "Get a link to choose a new password for your LayerKart account.",
    path: "/forgot-password",
    origin: originFrom(matches),
    noindex: true,
  });
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const result = fetcher.data ?? actionData;
  const busy = fetcher.state !== "idle";
  const errors = clientErrors ?? (result?.kind === "invalid" ? result.fieldErrors : {});

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <h1 className="mb-2 text-center font-bold text-3xl tracking-tight">Forgot your password?</h1>
      <p className="mb-6 text-center text-muted-foreground">
        Enter the email address of your account and we'll send you a link to choose a new one.
      </p>
      <div className="grid gap-4 rounded-xl border bg-card p-5 shadow-xs sm:p-6">
        {result?.kind === "sent" && !busy ? (
          <FormAlert tone="success" title={accountText.resetSentTitle}>
            If an account uses {result.email}, a link to reset its password is on its way. Check
            your inbox and spam folder.
          </FormAlert>
        ) : null}
        {result?.kind === "failed" && !busy ? (
          <FormAlert title={accountText.resetFailedTitle}>
            {result.message || accountText.tryAgain}
          </FormAlert>
        ) : null}
        <fetcher.Form
          method="post"
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            const fields = formFields(new FormData(event.currentTarget));
            const parsed = forgotPasswordSchema.safeParse(fields);
            if (!parsed.success) {
              event.preventDefault();
              setClientErrors(fieldErrors(parsed.error));
              return;
            }
            setClientErrors(null);
          }}
        >
          <FormField
            id="forgot-email"
            name="email"
            type="email"
            label="Email"
            autoComplete="email"
            required
            error={errors.email}
          />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? (
              <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />
            ) : null}
            Send reset link
          </Button>
        </fetcher.Form>
        <p className="text-center text-sm">
          <Link to="/auth" className="font-medium text-primary underline-offset-4 hover:underline">
            Back to sign in
          </Link>
        </p>
      </div>
    </div>
  );
}
