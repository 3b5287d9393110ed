import { ArrowLeft, Home } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";

/** Back goes to the previous page when there is one in this tab's history, else home. */
export function BackHomeButtons() {
  const navigate = useNavigate();
  const back = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate("/");
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button type="button" variant="outline" onClick={back}>
        <ArrowLeft aria-hidden="true" />
        Back
      </Button>
      <Link to="/" className={buttonVariants({ variant: "ghost" })}>
        <Home aria-hidden="true" />
        Home
      </Link>
    </div>
  );
}
