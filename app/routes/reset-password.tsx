import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import { data, Link, redirect, useFetcher } from "react-router";
import { FormAlert } from "~/components/account/form-alert";
import { NewPasswordFields } from "~/components/account/new-password-fields";
import { Button, buttonVariants } from "~/components/ui/button";
import { readForm } from "~/lib/forms.server.ts";
import { resetPassword } from "~/modules/accounts/credentials.server.ts";
import {
  accountText,
  type FieldErrors,
  fieldErrors,
  formFields,
  resetPasswordSchema,
} from "~/rules/account-schemas.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/reset-password";

/**
 * The password reset e-mail's link goes through Better Auth, which checks the token and lands
 * here with `?token=…` (or `?error=INVALID_TOKEN`).
 */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  const valid = Boolean(token) && !url.searchParams.has("error");
  return { token: valid ? token : null };
}

type ActionResult =
  | { kind: "invalid"; fieldErrors: FieldErrors }
  | { kind: "failed"; invalidToken: boolean; message: string };

export async function action({ request }: Route.ActionArgs) {
  const parsed = resetPasswordSchema.safeParse(formFields(await readForm(request)));
  if (!parsed.success) {
    return data<ActionResult>(
      { kind: "invalid", fieldErrors: fieldErrors(parsed.error) },
      { status: 400 },
    );
  }
  const { auth } = await runtime();
  const result = await resetPassword(auth, request, parsed.data);
  if (result.ok) throw redirect("/auth?reset=1");
  return data<ActionResult>({ kind: "failed", ...result }, { status: 400 });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Choose a new password",
    description: "Choose a new password for your LayerKart account.",
    path: "/reset-password",
    origin: originFrom(matches),
    noindex: true,
  });
}

function InvalidLink() {
  return (
    <div className="grid gap-4 rounded-xl border bg-card p-5 shadow-xs sm:p-6">
      <FormAlert title="Reset link not valid">
        This password reset link is invalid or has expired. Please ask for a new one.
      </FormAlert>
      <Link to="/forgot-password" className={buttonVariants({ className: "w-full" })}>
        Send a new reset link
      </Link>
    </div>
  );
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const result = fetcher.data ?? actionData;
  const busy = fetcher.state !== "idle";
  const errors = clientErrors ?? (result?.kind === "invalid" ? result.fieldErrors : {});
  const mismatch = errors.confirmPassword === accountText.passwordsDoNotMatch;
  const failed = result?.kind === "failed" && !busy ? result : null;

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <h1 className="mb-2 text-center font-bold text-3xl tracking-tight">Choose a new password</h1>
      <p className="mb-6 text-center text-muted-foreground">
        After the change, you are signed out everywhere and sign in with the new password.
      </p>
      {!loaderData.token || failed?.invalidToken ? (
        <InvalidLink />
      ) : (
        <div className="grid gap-4 rounded-xl border bg-card p-5 shadow-xs sm:p-6">
          {mismatch ? <FormAlert>{accountText.passwordsDoNotMatch}</FormAlert> : null}
          {failed ? <FormAlert title="Password not changed">{failed.message}</FormAlert> : null}
          <fetcher.Form
            method="post"
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              const parsed = resetPasswordSchema.safeParse(
                formFields(new FormData(event.currentTarget)),
              );
              if (!parsed.success) {
                event.preventDefault();
                setClientErrors(fieldErrors(parsed.error));
                return;
              }
              setClientErrors(null);
            }}
          >
            <input type="hidden" name="token" value={loaderData.token} />
            <NewPasswordFields
              ids={{ password: "new-password", confirm: "confirm-new-password" }}
              labels={{ password: "New password", confirm: "Confirm new password" }}
              errors={errors}
              mismatch={mismatch}
            />
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? (
                <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />
              ) : null}
              Change password
            </Button>
          </fetcher.Form>
        </div>
      )}
    </div>
  );
}
