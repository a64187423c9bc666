// The last line of defence against a blank page: a render error anywhere in the playground shows what went
// wrong and a way out (reload; reload without the URL fragment, in case a share link caused it).
import { Component, Fragment, type ErrorInfo, type ReactNode } from 'react';

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

/**
 * One panel's boundary: a panel that fails to render, or whose lazily loaded code cannot be fetched (offline
 * before it was ever kept, a deployment that replaced it), shows the error and a way to load it again while
 * the rest of the playground keeps working. `onRetry` runs before the panel is rendered again (the panel's
 * loader forgets a failed load there).
 */
export class PanelErrorBoundary extends Component<{ name: string; children: ReactNode; onRetry?: () => void }, State & { attempt: number }> {
  override state: State & { attempt: number } = { attempt: 0 };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`playground: the ${this.props.name} panel failed`, error, info.componentStack);
  }

  private retry = () => {
    this.props.onRetry?.();
    this.setState((s) => ({ error: undefined, attempt: s.attempt + 1 }));
  };

  override render(): ReactNode {
    const { error, attempt } = this.state;
    if (!error) return <Fragment key={attempt}>{this.props.children}</Fragment>;
    return (
      <div className="panel-error" data-testid="panel-error">
        <p role="alert" className="error">
          The {this.props.name} panel could not be shown: {error.message}
        </p>
        <p>
          <button type="button" onClick={this.retry}>
            Reload this panel
          </button>{' '}
          <button type="button" onClick={() => location.reload()}>
            Reload the page
          </button>
        </p>
      </div>
    );
  }
}
