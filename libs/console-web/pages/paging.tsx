import { useState, type ReactNode } from 'react';

/** Keyset paging: the cursors of the pages seen so far, so going back needs no offsets. */
export interface CursorTrail {
  /** The cursor of the page shown (undefined: the first page). */
  cursor: string | undefined;
  /** How many pages deep the one shown is: 1 on the first page. */
  depth: number;
  next: (cursor: string) => void;
  previous: () => void;
  /** To the first page again (the filters changed). */
  reset: () => void;
}

export function useCursorTrail(): CursorTrail {
  const [trail, setTrail] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: trail[trail.length - 1],
    depth: trail.length,
    next: (cursor) => setTrail([...trail, cursor]),
    previous: () => setTrail(trail.length > 1 ? trail.slice(0, -1) : trail),
    reset: () => setTrail([undefined]),
  };
}

/**
 * The buttons to the previous and the next page of a keyset list, in both consoles: none while the
 * list has one page only; otherwise both, each disabled when there is no page that way (the next
 * one only when the API gave its cursor).
 */
export function Pager(props: { trail: CursorTrail; nextCursor: string | null | undefined; previousLabel?: string; nextLabel?: string }): ReactNode {
  const { trail, nextCursor } = props;
  const next = typeof nextCursor === 'string' && nextCursor !== '' ? nextCursor : undefined;
  if (trail.depth <= 1 && next === undefined) return null;
  return (
    <div className="pager">
      <button type="button" className="secondary" disabled={trail.depth <= 1} onClick={trail.previous}>
        {props.previousLabel ?? 'Previous page'}
      </button>
      <button type="button" className="secondary" disabled={next === undefined} onClick={() => next !== undefined && trail.next(next)}>
        {props.nextLabel ?? 'Next page'}
      </button>
    </div>
  );
}
