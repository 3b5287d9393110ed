import { Briefcase, Clock, MapPin } from "lucide-react";
import { Link } from "react-router";
import { company } from "~/components/content/company";
import { ContentPage, ContentSection, CtaPanel, Prose } from "~/components/content/content-page";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/careers";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Careers",
    description:
      "Work at LayerKart in Bangalore: open full-time roles for a 3D Printing Technician and a 3D Design Specialist.",
    path: "/careers",
    origin: originFrom(matches),
  });

type Role = {
  title: string;
  type: "Full-time";
  location: string;
  summary: string;
  duties: string[];
  skills: string[];
};

const roles: Role[] = [
  {
    title: "3D Printing Technician",
    type: "Full-time",
    location: company.city,
    summary:
      "Keep our print farm running: prepare jobs, look after the printers and make sure every part that leaves the studio is one we are proud of.",
    duties: [
      "Slice, queue and monitor print jobs in PLA, PETG and specialty materials",
      "Calibrate, clean and repair FDM and resin printers",
      "Remove supports, sand, prime and finish printed parts",
      "Check each order against the customer's brief before it is packed",
    ],
    skills: [
      "Hands-on experience with FDM printers (home or professional)",
      "Patience with fine detail and a tidy workbench",
      "Comfortable with basic tools; resin experience is a plus",
    ],
  },
  {
    title: "3D Design Specialist",
    type: "Full-time",
    location: company.city,
    summary:
      "Turn customers' sketches, photos and ideas into printable models, and help shape the designs in our catalogue.",
    duties: [
      "Model custom pieces, from functional parts to character miniatures",
      "Repair and optimise customers' STL, OBJ, 3MF and PLY files for printing",
      "Talk customers through options, sizes and materials",
      "Create new products for the shop with the printing team",
    ],
    skills: [
      "A portfolio of 3D models in Blender, Fusion, ZBrush or similar",
      "Understanding of what makes a model printable (walls, overhangs, tolerances)",
      "Clear written English; Kannada or Hindi is a plus",
    ],
  },
];

/** Apply opens the contact form with the subject already filled in (DESIGN decision 8). */
function applyHref(role: string) {
  return `/contact?subject=${encodeURIComponent(`Application: ${role}`)}`;
}

export default function Careers() {
  return (
    <ContentPage
      eyebrow="Careers"
      title="Careers at LayerKart"
      lead="We are a small team that makes real things every day. If you love 3D printing, design or both, we would like to hear from you."
      width="wide"
    >
      <ContentSection title="Why work with us">
        <ul>
          <li>Work on something new every week, from tiny miniatures to large display pieces.</li>
          <li>Learn across the whole process: design, printing, finishing and customer care.</li>
          <li>
            A studio in {company.city} with regular hours and a team that shares what it knows.
          </li>
          <li>Access to the printers for your own projects, after hours.</li>
        </ul>
      </ContentSection>

      <ContentSection title="Open positions" prose={false}>
        <ul className="grid gap-6 md:grid-cols-2">
          {roles.map((role) => (
            <li
              key={role.title}
              className="flex flex-col rounded-xl border bg-card p-6 text-card-foreground shadow-xs"
            >
              <div className="flex items-start gap-3">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-primary">
                  <Briefcase aria-hidden="true" className="size-5" />
                </span>
                <div>
                  <h3 className="font-semibold text-xl">{role.title}</h3>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <Badge variant="secondary">
                      <Clock aria-hidden="true" />
                      {role.type}
                    </Badge>
                    <Badge variant="outline">
                      <MapPin aria-hidden="true" />
                      {role.location}
                    </Badge>
                  </div>
                </div>
              </div>
              <Prose className="mt-4 flex-1 text-sm leading-6">
                <p>{role.summary}</p>
                <h4 className="font-semibold">What you will do</h4>
                <ul>
                  {role.duties.map((d) => (
                    <li key={d}>{d}</li>
                  ))}
                </ul>
                <h4 className="font-semibold">What you bring</h4>
                <ul>
                  {role.skills.map((s) => (
                    <li key={s}>{s}</li>
                  ))}
                </ul>
              </Prose>
              <Link
                to={applyHref(role.title)}
                className={buttonVariants({ className: "mt-6 self-start" })}
              >
                Apply<span className="sr-only"> for {role.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      </ContentSection>

      <CtaPanel
        title="Don't see your role?"
        actions={
          <Link to="/contact" className={buttonVariants()}>
            Send Resume
          </Link>
        }
      >
        <p>
          We are always glad to meet good printers, designers and makers. Send us your resume and a
          few words about what you would like to do, and we will keep it on file for the next
          opening.
        </p>
      </CtaPanel>
    </ContentPage>
  );
}
