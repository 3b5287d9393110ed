import { data } from "react-router";
import { NotFoundPage } from "~/components/layout/error-pages";

/** Any unknown path answers 404 with the 'Oops! Page not found' page. */
export function loader() {
  throw data(null, { status: 404, statusText: "Not Found" });
}

export function meta() {
  return [{ title: "Page not found — LayerKart" }, { name: "robots", content: "noindex" }];
}

export default function NotFound() {
  return <NotFoundPage />;
}
