import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';

/**
 * A console's whole router (the back-office's and the dashboard's): the page is chosen from location.pathname, links push history, and
 * back/forward re-render. A library would add nothing the handful of pages need.
 */
const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace === true) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

export function useLocation(): { pathname: string; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const changed = (): void => setTick((tick) => tick + 1);
    listeners.add(changed);
    window.addEventListener('popstate', changed);
    return () => {
      listeners.delete(changed);
      window.removeEventListener('popstate', changed);
    };
  }, []);
  return { pathname: location.pathname, search: new URLSearchParams(location.search) };
}

export function Link(props: { to: string; children: ReactNode; className?: string; current?: boolean }): ReactNode {
  const follow = (event: MouseEvent<HTMLAnchorElement>): void => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={props.to} onClick={follow} className={props.className} aria-current={props.current === true ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
