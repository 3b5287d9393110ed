import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import { data, Link, redirect, useFetcher } from "react-router";
import { FormAlert } from "~/components/account/form-alert";
import { errorId, FieldError, FormField } from "~/components/account/form-field";
import { NewPasswordFields } from "~/components/account/new-password-fields";
import { NoticeDialog } from "~/components/account/notice-dialog";
import { PasswordInput } from "~/components/account/password-input";
import { Button, buttonVariants } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { readForm } from "~/lib/forms.server.ts";
import { useHydrated } from "~/lib/use-hydrated";
import { register, resendVerification, signIn } from "~/modules/accounts/credentials.server.ts";
import { getViewer } from "~/modules/accounts/viewer.server.ts";
import {
  accountText,
  type FieldErrors,
  fieldErrors,
  formFields,
  loginSchema,
  registerSchema,
  resendVerificationSchema,
  safeRedirect,
} from "~/rules/account-schemas.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/auth";

type Tab = "login" | "register";
type Notice = "verified" | "verify-failed" | "password-reset" | null;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const rawRedirect = url.searchParams.get("redirectTo");
  const rt = await runtime();
  // Already signed in: nothing to do here.
  if (await getViewer(rt, request)) throw redirect(safeRedirect(rawRedirect));
  const verified = url.searchParams.get("verified") === "1";
  const failed = url.searchParams.has("error");
  const notice: Notice =
    verified && !failed
      ? "verified"
      : verified && failed
        ? "verify-failed"
        : url.searchParams.get("reset") === "1"
          ? "password-reset"
          : null;
  const tab: Tab = url.searchParams.get("tab") === "register" ? "register" : "login";
  return { redirectTo: rawRedirect ? safeRedirect(rawRedirect) : null, notice, tab };
}

type ActionResult =
  | { kind: "register-invalid"; fieldErrors: FieldErrors }
  | { kind: "register-failed"; message: string }
  | { kind: "registered"; email: string }
  | { kind: "login-invalid"; fieldErrors: FieldErrors }
  | { kind: "unverified"; email: string }
  | { kind: "incorrect" }
  | { kind: "sign-in-failed"; message?: string }
  | { kind: "resent"; ok: boolean };

const reply = (result: ActionResult, status = 200) => data(result, { status });

export async function action({ request }: Route.ActionArgs) {
  const fields = formFields(await readForm(request));
  const { auth } = await runtime();
  // The page to go back to after signing in, also through an e-mail's verification link.
  const returnTo = fields.redirectTo ? safeRedirect(fields.redirectTo) : null;

  if (fields.intent === "register") {
    const parsed = registerSchema.safeParse(fields);
    if (!parsed.success) {
      return reply({ kind: "register-invalid", fieldErrors: fieldErrors(parsed.error) }, 400);
    }
    const result = await register(auth, request, parsed.data, returnTo);
    if (!result.ok) return reply({ kind: "register-failed", message: result.message }, 400);
    return reply({ kind: "registered", email: parsed.data.email });
  }

  if (fields.intent === "login") {
    const parsed = loginSchema.safeParse(fields);
    if (!parsed.success) {
      return reply({ kind: "login-invalid", fieldErrors: fieldErrors(parsed.error) }, 400);
    }
    const result = await signIn(auth, request, parsed.data, returnTo);
    switch (result.status) {
      case "signed-in":
        throw redirect(safeRedirect(fields.redirectTo), { headers: result.headers });
      case "unverified":
        return reply({ kind: "unverified", email: parsed.data.email }, 403);
      case "incorrect":
        return reply({ kind: "incorrect" }, 401);
      case "throttled":
        return reply({ kind: "sign-in-failed", message: result.message }, 429);
      default:
        // A refused address is no outage: it says which address to use (403), not "try again".
        return result.message
          ? reply({ kind: "sign-in-failed", message: result.message }, 403)
          : reply({ kind: "sign-in-failed" }, 503);
    }
  }

  if (fields.intent === "resend") {
    const parsed = resendVerificationSchema.safeParse(fields);
    if (!parsed.success) return reply({ kind: "resent", ok: false }, 400);
    const result = await resendVerification(auth, request, parsed.data.email, returnTo);
    return reply({ kind: "resent", ok: result.ok }, result.ok ? 200 : 503);
  }

  return reply({ kind: "sign-in-failed" }, 400);
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Sign in or register",
    description: "Sign in to your LayerKart account, or create one to order and track your prints.",
    path: "/auth",
    origin: originFrom(matches),
    noindex: true,
  });
}

const tabHref = (tab: Tab, redirectTo: string | null) => {
  const params = new URLSearchParams();
  if (tab === "register") params.set("tab", "register");
  if (redirectTo) params.set("redirectTo", redirectTo);
  const query = params.toString();
  return query ? `/auth?${query}` : "/auth";
};

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, notice } = loaderData;
  // Without JavaScript the page is rendered again after each POST: stay on the form just used.
  const initialTab: Tab =
    actionData?.kind === "registered" ||
    actionData?.kind === "register-invalid" ||
    actionData?.kind === "register-failed"
      ? "register"
      : loaderData.tab;
  const [tab, setTab] = useState<Tab>(initialTab);

  const switchTo = (next: Tab) => (event: React.MouseEvent) => {
    event.preventDefault();
    setTab(next);
  };

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <h1 className="mb-2 text-center font-bold text-3xl tracking-tight">Your LayerKart account</h1>
      <p className="mb-6 text-center text-muted-foreground">
        Sign in to check out, track orders and keep your favourites.
      </p>

      {notice === "verified" ? (
        <FormAlert tone="success" title="Email verified" className="mb-4">
          Your email address is confirmed. You can sign in now.
        </FormAlert>
      ) : notice === "verify-failed" ? (
        <FormAlert title="Verification link not valid" className="mb-4">
          This verification link is invalid or has expired. Sign in to get a new one.
        </FormAlert>
      ) : notice === "password-reset" ? (
        <FormAlert tone="success" title="Password changed" className="mb-4">
          Sign in with your new password.
        </FormAlert>
      ) : null}

      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="gap-4">
        <TabsList className="grid w-full grid-cols-2">
          <TabsTrigger value="login">Login</TabsTrigger>
          <TabsTrigger value="register">Register</TabsTrigger>
        </TabsList>
        <TabsContent
          value="login"
          forceMount
          className="rounded-xl border bg-card p-5 shadow-xs data-[state=inactive]:hidden sm:p-6"
        >
          <LoginForm redirectTo={redirectTo} actionData={actionData} />
          <p className="mt-6 text-center text-muted-foreground text-sm">
            New to LayerKart?{" "}
            <Link
              to={tabHref("register", redirectTo)}
              onClick={switchTo("register")}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Create an account
            </Link>
          </p>
        </TabsContent>
        <TabsContent
          value="register"
          forceMount
          className="rounded-xl border bg-card p-5 shadow-xs data-[state=inactive]:hidden sm:p-6"
        >
          <RegisterForm
            actionData={actionData}
            redirectTo={redirectTo}
            onDone={() => setTab("login")}
          />
          <p className="mt-6 text-center text-muted-foreground text-sm">
            Already have an account?{" "}
            <Link
              to={tabHref("login", redirectTo)}
              onClick={switchTo("login")}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Sign in
            </Link>
          </p>
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** What the last submission of this page answered: a fetcher's data, or (without JS) the page's. */
type Result = ActionResult | undefined;

function Busy() {
  return <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />;
}

function SubmitButton({ busy, children }: { busy: boolean; children: React.ReactNode }) {
  return (
    <Button type="submit" className="w-full" disabled={busy}>
      {busy ? <Busy /> : null}
      {children}
    </Button>
  );
}

const LOGIN_KINDS = ["login-invalid", "unverified", "incorrect", "sign-in-failed", "resent"];
const REGISTER_KINDS = ["register-invalid", "register-failed", "registered"];

function LoginForm({ redirectTo, actionData }: { redirectTo: string | null; actionData: Result }) {
  const fetcher = useFetcher<typeof action>();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result: Result =
    fetcher.data ?? (actionData && LOGIN_KINDS.includes(actionData.kind) ? actionData : undefined);
  const busy = fetcher.state !== "idle";
  const errors =
    clientErrors ?? (result?.kind === "login-invalid" ? result.fieldErrors : ({} as FieldErrors));
  const dialogOpen = Boolean(result) && result !== dismissed && fetcher.state === "idle";
  const close = () => setDismissed(result);

  return (
    <>
      {result?.kind === "resent" ? <ResendOutcome ok={result.ok} /> : null}
      <fetcher.Form
        method="post"
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          const parsed = loginSchema.safeParse(formFields(new FormData(event.currentTarget)));
          if (!parsed.success) {
            event.preventDefault();
            setClientErrors(fieldErrors(parsed.error));
            return;
          }
          setClientErrors(null);
        }}
      >
        <input type="hidden" name="intent" value="login" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <FormField
          id="login-email"
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          required
          error={errors.email}
        />
        <div className="grid gap-2">
          <div className="flex items-center justify-between gap-2">
            <Label htmlFor="login-password">Password</Label>
            <Link
              to="/forgot-password"
              className="text-primary text-sm underline-offset-4 hover:underline"
            >
              Forgot password?
            </Link>
          </div>
          <PasswordInput
            id="login-password"
            name="password"
            autoComplete="current-password"
            required
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={errors.password ? errorId("login-password") : undefined}
          />
          <FieldError id="login-password" message={errors.password} />
        </div>
        <SubmitButton busy={busy}>{busy ? "Signing in…" : "Sign In"}</SubmitButton>
      </fetcher.Form>

      <UnverifiedDialog
        open={dialogOpen && result?.kind === "unverified"}
        email={result?.kind === "unverified" ? result.email : ""}
        redirectTo={redirectTo}
        onClose={close}
      />
      <NoticeDialog
        open={dialogOpen && result?.kind === "incorrect"}
        onClose={close}
        title={accountText.incorrectTitle}
        description={
          <>
            <p>{accountText.incorrectDescription}</p>
            <p className="mt-2">{accountText.genericLoginHelp}</p>
          </>
        }
        footer={
          <>
            <Link to="/forgot-password" className={buttonVariants({ variant: "outline" })}>
              Reset password
            </Link>
            <CloseButton onClose={close}>Try again</CloseButton>
          </>
        }
      />
      <NoticeDialog
        open={dialogOpen && result?.kind === "sign-in-failed"}
        onClose={close}
        title={accountText.signInFailedTitle}
        description={
          (result?.kind === "sign-in-failed" && result.message) ||
          accountText.signInFailedDescription
        }
        footer={<CloseButton onClose={close}>OK</CloseButton>}
      />
    </>
  );
}

/** Closes a dialog; without JavaScript it is a link back to the sign-in form. */
function CloseButton({ onClose, children }: { onClose: () => void; children: React.ReactNode }) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <Link to="/auth" className={buttonVariants()}>
        {children}
      </Link>
    );
  }
  return (
    <Button type="button" onClick={onClose} className="max-sm:w-full">
      {children}
    </Button>
  );
}

function ResendOutcome({ ok }: { ok: boolean }) {
  return ok ? (
    <FormAlert tone="success" title={accountText.resendSentTitle} className="mb-4">
      {accountText.resendSentDescription}
    </FormAlert>
  ) : (
    <FormAlert title={accountText.resendFailedTitle} className="mb-4">
      {accountText.tryAgain}
    </FormAlert>
  );
}

function UnverifiedDialog({
  open,
  email,
  redirectTo,
  onClose,
}: {
  open: boolean;
  email: string;
  redirectTo: string | null;
  onClose: () => void;
}) {
  const resend = useFetcher<typeof action>();
  const sending = resend.state !== "idle";
  const sent = resend.data?.kind === "resent" ? resend.data : null;
  return (
    <NoticeDialog
      open={open}
      onClose={onClose}
      title={accountText.notVerifiedTitle}
      description={
        <>
          <p>
            Please verify your email address before signing in. We've sent a new verification link
            to <span className="font-medium text-foreground">{email}</span>.
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>Check your inbox and your spam folder for the link.</li>
            <li>Didn't get it? Resend the verification link below.</li>
            <li>Can't remember your password? Reset it instead.</li>
          </ul>
        </>
      }
      footer={
        <>
          <Link to="/forgot-password" className={buttonVariants({ variant: "outline" })}>
            Reset password
          </Link>
          <resend.Form method="post" className="max-sm:w-full">
            <input type="hidden" name="intent" value="resend" />
            <input type="hidden" name="email" value={email} />
            {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
            <Button type="submit" variant="secondary" disabled={sending} className="max-sm:w-full">
              {sending ? <Busy /> : null}
              Resend verification email
            </Button>
          </resend.Form>
          <CloseButton onClose={onClose}>Close</CloseButton>
        </>
      }
    >
      {sent && !sending ? <ResendOutcome ok={sent.ok} /> : null}
    </NoticeDialog>
  );
}

function RegisterForm({
  actionData,
  redirectTo,
  onDone,
}: {
  actionData: Result;
  redirectTo: string | null;
  onDone: () => void;
}) {
  const fetcher = useFetcher<typeof action>();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result: Result =
    fetcher.data ??
    (actionData && REGISTER_KINDS.includes(actionData.kind) ? actionData : undefined);
  const busy = fetcher.state !== "idle";
  const errors =
    clientErrors ??
    (result?.kind === "register-invalid" ? result.fieldErrors : ({} as FieldErrors));
  // A mismatch is an alert about the form (SPEC.md §5), not a note under one field.
  const mismatch = errors.confirmPassword === accountText.passwordsDoNotMatch;
  const failure =
    !clientErrors && result?.kind === "register-failed"
      ? result.message || accountText.registrationFailed
      : null;
  const registered = result?.kind === "registered" ? result : null;

  return (
    <>
      <fetcher.Form
        method="post"
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          const parsed = registerSchema.safeParse(formFields(new FormData(event.currentTarget)));
          if (!parsed.success) {
            event.preventDefault();
            setClientErrors(fieldErrors(parsed.error));
            return;
          }
          setClientErrors(null);
        }}
      >
        <input type="hidden" name="intent" value="register" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        {mismatch ? <FormAlert>{accountText.passwordsDoNotMatch}</FormAlert> : null}
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            id="register-first-name"
            name="firstName"
            label="First name"
            autoComplete="given-name"
            required
            error={errors.firstName}
          />
          <FormField
            id="register-last-name"
            name="lastName"
            label="Last name"
            autoComplete="family-name"
            required
            error={errors.lastName}
          />
        </div>
        <FormField
          id="register-email"
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          required
          error={errors.email}
        />
        <NewPasswordFields
          ids={{ password: "register-password", confirm: "register-confirm" }}
          labels={{ password: "Password", confirm: "Confirm password" }}
          errors={errors}
          mismatch={mismatch}
        />
        <SubmitButton busy={busy}>{busy ? "Creating account…" : "Create Account"}</SubmitButton>
      </fetcher.Form>

      <NoticeDialog
        open={Boolean(registered) && result !== dismissed && !busy}
        onClose={() => {
          setDismissed(result);
          onDone();
        }}
        title={accountText.verifyEmailTitle}
        description={
          <p>
            We've sent a verification link to{" "}
            <span className="font-medium text-foreground">{registered?.email}</span>. Open it to
            activate your account, then sign in. If you can't find the email, check your spam
            folder.
          </p>
        }
        footer={
          <CloseButton
            onClose={() => {
              setDismissed(result);
              onDone();
            }}
          >
            Go to sign in
          </CloseButton>
        }
      />
    </>
  );
}
