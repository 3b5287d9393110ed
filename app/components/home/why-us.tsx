import { Gift, Headphones, PencilRuler, Tag } from "lucide-react";
import { Link } from "react-router";

const reasons = [
  { icon: Tag, title: "Special Offer", text: "Festive deals and bundle prices all year." },
  { icon: Gift, title: "Special Gift", text: "Gift-ready packing for every order." },
  { icon: Headphones, title: "Support 24x7", text: "Write to us any time; we answer fast." },
  {
    icon: PencilRuler,
    title: "Custom 3D Design",
    text: "Upload your model for an instant price; we print it.",
    to: "/custom-printing",
  },
];

export function WhyUs() {
  return (
    <section aria-labelledby="why-us-heading" className="mt-12">
      <h2 id="why-us-heading" className="mb-4 font-bold text-2xl">
        Why Us ?
      </h2>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {reasons.map(({ icon: Icon, title, text, to }) => {
          const body = (
            <>
              <Icon aria-hidden="true" className="size-6 shrink-0 text-primary" />
              <span>
                <span className="block font-semibold">{title}</span>
                <span className="block text-muted-foreground text-sm">{text}</span>
              </span>
            </>
          );
          return (
            <li key={title} className="rounded-lg border bg-card">
              {to ? (
                <Link to={to} className="flex h-full gap-3 p-4 hover:bg-accent">
                  {body}
                </Link>
              ) : (
                <div className="flex h-full gap-3 p-4">{body}</div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
