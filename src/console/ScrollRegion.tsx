import { type ReactNode } from 'react';

export interface ScrollRegionProps {
  /** What the region holds, for a screen reader ("Alarm phones"). */
  label: string;
  className: string;
  children: ReactNode;
}

/**
 * A box whose content may scroll (a wide table on a phone): it takes focus so a keyboard user
 * can scroll it with the arrow keys, and it is named so a screen reader says what it is.
 */
export function ScrollRegion({ label, className, children }: ScrollRegionProps) {
  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
