// The last line of defence against a blank page: a render error anywhere in the playground shows what went
// wrong and a way out (reload; reload without the URL fragment, in case a share link caused it).
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error?: Error;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('playground: render error', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <main className="fatal" data-testid="render-error">
        <p role="alert" className="error">
          The playground hit an error: {error.message}
        </p>
        <p>
          <button type="button" onClick={() => location.reload()}>
            Reload
          </button>{' '}
          {location.hash && (
            <button
              type="button"
              onClick={() => {
                history.replaceState(null, '', location.pathname + location.search);
                location.reload();
              }}
            >
              Reload without the link
            </button>
          )}
        </p>
      </main>
    );
  }
}
