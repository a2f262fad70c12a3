// The widget's few icons as plain SVG. Path data is Lucide's (ISC licence, also used by the
// admin SPA through lucide-react); lucide-react's runtime cost ~2 KB gzip that widget.js can't spare.

const circle = (cx: number, cy: number, r: number) => `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;

const PATHS = {
  chevronDown: 'm6 9 6 6 6-6',
  minus: 'M5 12h14',
  plus: 'M5 12h14M12 5v14',
  x: 'M18 6 6 18M6 6l12 12',
  navigation: 'M3 11 22 2 13 21 11 13 3 11',
  loader: 'M21 12a9 9 0 1 1-6.219-8.56',
  circleCheck: `${circle(12, 12, 10)}M16 9l-5.5 5.5L8 12`,
  phone:
    'M13.832 16.568a1 1 0 0 0 1.213-.303l.355-.465A2 2 0 0 1 17 15h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2A18 18 0 0 1 2 4a2 2 0 0 1 2-2h3a2 2 0 0 1 2 2v3a2 2 0 0 1-.8 1.6l-.468.351a1 1 0 0 0-.292 1.233 14 14 0 0 0 6.392 6.384',
  message: 'M2.992 16.342a2 2 0 0 1 .094 1.167l-1.065 3.29a1 1 0 0 0 1.236 1.168l3.413-.998a2 2 0 0 1 1.099.092 10 10 0 1 0-4.777-4.719',
  truck: `M14 18V6a2 2 0 0 0-2-2H4a2 2 0 0 0-2 2v11a1 1 0 0 0 1 1h2M15 18H9M19 18h2a1 1 0 0 0 1-1v-3.65a1 1 0 0 0-.22-.624l-3.48-4.35A1 1 0 0 0 17.52 8H14${circle(17, 18, 2)}${circle(7, 18, 2)}`,
} as const;

export type IconName = keyof typeof PATHS;

/** Decorative only: every icon sits beside text or inside a labelled control. */
export function Icon({ name, className }: { name: IconName; className: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
