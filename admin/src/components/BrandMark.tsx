import { Truck } from 'lucide-react';
import { PRODUCT_NAME } from '#shared/constants';

/** The product's own logo: used on the marketing and auth screens, never on an operator's page. */
/** `compact` hides the name on the narrowest phones, where the header needs the room. */
export function BrandMark({ inverted = false, compact = false }: { inverted?: boolean; compact?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2 font-bold tracking-tight">
      <span
        className={
          inverted ? 'grid size-8 place-items-center rounded-lg bg-white text-brand-700' : 'grid size-8 place-items-center rounded-lg bg-brand-600 text-white'
        }
      >
        <Truck className="size-5" aria-hidden="true" />
      </span>
      <span className={compact ? 'hidden text-lg min-[420px]:inline' : 'text-lg'}>{PRODUCT_NAME}</span>
    </span>
  );
}
