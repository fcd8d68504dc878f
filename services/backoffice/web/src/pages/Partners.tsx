import type { ReactNode } from 'react';

export function PartnersPage(): ReactNode {
  return <h1>Partners</h1>;
}
export function PartnerDetailPage(props: { partnerId: string }): ReactNode { return <h1>{props.partnerId}</h1>; }
