import { BackHomeButtons } from "./back-home-buttons";

export function NotFoundPage() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <p className="font-bold text-6xl text-primary">404</p>
      <h1 className="font-bold text-3xl">Oops! Page not found</h1>
      <p className="text-muted-foreground">
        The page you are looking for doesn't exist or has been moved.
      </p>
      <BackHomeButtons />
    </section>
  );
}

export function UnexpectedErrorPage({ status, detail }: { status?: number; detail: string }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="font-bold text-3xl">Unexpected Application Error!</h1>
      <p className="text-lg">
        {status ? <span className="font-semibold">{status} </span> : null}
        <span data-testid="error-detail">{detail}</span>
      </p>
      <BackHomeButtons />
    </section>
  );
}
