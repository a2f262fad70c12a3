// A reason shown on one tab may name a field on another that fixes it: the phone number a locked URL
// needs (Contact Info), the base postcode travel to you and the maximum radius are measured from
// (Branding). Its link opens that tab and puts the cursor in the field.
import { createContext, useContext, type ReactNode } from 'react';
import { flushSync } from 'react-dom';

export type PortalTab = 'pricing' | 'charges' | 'branding' | 'contact' | 'quotes';

/** The ids of the fields a reason elsewhere links to, with the tab each is on. */
export const LINKED_FIELDS = {
  phone: { id: 'contact-phone', tab: 'contact' },
  basePostcode: { id: 'base-postcode', tab: 'branding' },
} as const satisfies Record<string, { id: string; tab: PortalTab }>;

const OpenTabContext = createContext<(tab: PortalTab) => void>(() => undefined);

/** The Driver Portal gives its tab switch here; outside it (a card's own test) the field is on screen already. */
export const OpenTabProvider = OpenTabContext.Provider;

export function FieldLink({ field, children }: { field: keyof typeof LINKED_FIELDS; children: ReactNode }) {
  const openTab = useContext(OpenTabContext);
  const { id, tab } = LINKED_FIELDS[field];
  return (
    <a
      href={`#${id}`}
      className="font-medium text-brand-700 underline"
      onClick={(event) => {
        event.preventDefault();
        // The tab renders before the field is looked for: a field in a hidden tab takes no focus.
        flushSync(() => openTab(tab));
        const input = document.getElementById(id);
        input?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
        input?.focus({ preventScroll: true });
      }}
    >
      {children}
    </a>
  );
}
