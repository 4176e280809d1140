import { Component, type ReactNode } from 'react';
import { useT } from './i18n/i18n-context';

interface Props {
  /** Called before retrying, so a failed lazy chunk is imported afresh. */
  onRetry(): void;
  /** Called on every render, so a retry picks up a fresh lazy component. */
  children: () => ReactNode;
}

/** Keeps a failing section (e.g. its chunk did not load) inside the content pane, with a retry. */
export class SectionBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children();
    return (
      <SectionFailed
        onRetry={() => {
          this.props.onRetry();
          this.setState({ failed: false });
        }}
      />
    );
  }
}

function SectionFailed({ onRetry }: { onRetry: () => void }) {
  const t = useT();
  return (
    <div className="gh-ap-empty">
      <p className="gh-ap-empty-title" role="alert">{t.t('common.genericError')}</p>
      <button type="button" className="gh-ap-button" onClick={onRetry}>{t.t('common.tryAgain')}</button>
    </div>
  );
}
