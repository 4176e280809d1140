import { Fragment, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FilePicker } from '../controls/file-picker';
import { useErrorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import { Toast } from '../toast';
import { fieldVisibility, type FieldVisibility, type ProfileField } from '../options';
import { Avatar } from '../user-badge';
import { UsernamePaths } from '@gatehouse/shared/admin-paths';
import { changedFields, draftFromUser, usernameProblem, usernameSteps, validateChanges, type EditableProfileField, type ProfileDraft, type ProfileErrors } from './profile-changes';
import { isUploadableImage, PROFILE_IMAGE_TYPES, profileImageProblem } from './profile-image';
import type { SectionProps } from './section-props';

const TEXT_FIELDS: { field: EditableProfileField; label: string; type: 'text' | 'tel'; autoComplete: string; maxLength: number }[] = [
  { field: 'name', label: 'profile.field.name', type: 'text', autoComplete: 'name', maxLength: 200 },
  { field: 'phoneNumber', label: 'profile.field.phoneNumber', type: 'tel', autoComplete: 'tel', maxLength: 32 },
  { field: 'address', label: 'profile.field.address', type: 'text', autoComplete: 'street-address', maxLength: 500 },
  { field: 'jobTitle', label: 'profile.field.jobTitle', type: 'text', autoComplete: 'organization-title', maxLength: 200 },
];

/**
 * Profile section: edit name, username, phone number, address, job title and picture (a picker with
 * a preview that also takes a dropped file) of the signed-in user. The email is changed in Privacy.
 */
export default function ProfileSection({ title, headingId, user, snapshot, store, api, options }: SectionProps) {
  const t = useT();
  const errorMessage = useErrorText();
  const visibility = (field: ProfileField): FieldVisibility => fieldVisibility(options, 'profile', field);
  const editable = TEXT_FIELDS.map(({ field }) => field).filter((field) => visibility(field) === 'editable');

  const [draft, setDraft] = useState<ProfileDraft>(() => draftFromUser(user));
  const [username, setUsername] = useState(user.username ?? '');
  const [usernameError, setUsernameError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<ProfileErrors>({});
  const [image, setImage] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Which outcome to show: the store's profile flags may be left over from an earlier save.
  const [outcome, setOutcome] = useState<'none' | 'sent' | 'unchanged'>('none');
  const [thrown, setThrown] = useState<string | null>(null);
  const readerRef = useRef<FileReader | null>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const ids = useId();

  // Fields whose stored value changed (a save, another tab) take the new value; other edits stay,
  // so a token refresh that replaces the user object never wipes what is being typed.
  const baselineRef = useRef(draftFromUser(user));
  useEffect(() => {
    const previous = baselineRef.current;
    const next = draftFromUser(user);
    baselineRef.current = next;
    const moved = (Object.keys(next) as EditableProfileField[]).filter((field) => next[field] !== previous[field]);
    if (moved.length > 0) setDraft((current) => ({ ...current, ...Object.fromEntries(moved.map((field) => [field, next[field]])) }));
  }, [user]);

  // Same for the username: a new stored value replaces the field only when it moved.
  const baselineUsernameRef = useRef(user.username ?? '');
  useEffect(() => {
    const next = user.username ?? '';
    if (next !== baselineUsernameRef.current) {
      baselineUsernameRef.current = next;
      setUsername(next);
    }
  }, [user.username]);

  useEffect(() => () => readerRef.current?.abort(), []);

  const saving = submitting || snapshot.profile.saving;
  const serverError = thrown ?? (outcome === 'sent' && !saving ? snapshot.profile.error : null);
  const saved = outcome === 'sent' && !saving && !serverError && snapshot.profile.saved;

  function edit(field: EditableProfileField, value: string) {
    setDraft((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
    setOutcome('none');
  }

  function pickImage(file: File | null) {
    readerRef.current?.abort();
    setOutcome('none');
    if (!file) return;
    const problem = profileImageProblem(file);
    if (problem) {
      setImageError(t.t(problem));
      setImage(null);
      if (fileInputRef.current) fileInputRef.current.value = '';
      return;
    }
    setImageError(null);
    const reader = new FileReader();
    readerRef.current = reader;
    reader.onload = () => {
      if (typeof reader.result === 'string') setImage(reader.result);
    };
    reader.onerror = () => setImageError(t.t('profile.picture.unreadable'));
    reader.readAsDataURL(file);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const changes = changedFields(user, draft, editable);
    const errors = validateChanges(changes);
    const steps = visibility('username') === 'editable' ? usernameSteps(user.username, username) : [];
    const badUsername = steps.length > 0 ? usernameProblem(username) : null;
    setFieldErrors(errors);
    setUsernameError(badUsername ? t.t(badUsername) : null);
    setThrown(null);
    if (Object.keys(errors).length > 0 || badUsername) {
      setOutcome('none');
      return;
    }
    const profileImage = visibility('profilePicture') === 'editable' && isUploadableImage(image, user.profilePictureUrl) ? image : undefined;
    if (Object.keys(changes).length === 0 && !profileImage && steps.length === 0) {
      setOutcome('unchanged');
      return;
    }
    setSubmitting(true);
    setOutcome('sent');
    try {
      try {
        // Seed 001 section 5: the old username goes first; the server refuses a second one.
        for (const step of steps) {
          if (step.kind === 'delete') await api.request('DELETE', UsernamePaths.myUsername);
          else await api.request('POST', UsernamePaths.myUsername, { body: { username: step.username } });
        }
      } catch (error) {
        setUsernameError(errorMessage(error));
        setOutcome('none');
        return;
      }
      // Also after a username-only change: the PUT answers the fresh profile, username included.
      await store.updateProfile(profileImage ? { ...changes, profileImage } : changes);
      if (!store.getSnapshot().profile.error) {
        setImage(null);
        if (fileInputRef.current) fileInputRef.current.value = '';
      }
    } catch (error) {
      setThrown(errorMessage(error));
    } finally {
      setSubmitting(false);
    }
  }

  const pictureVisibility = visibility('profilePicture');
  const emailVisibility = visibility('email');
  // A phone sign-up account has no email: its phone number stands in.
  const displayName = draft.name || user.email || user.phoneNumber || '';

  // Seed 001 "Profile fields: name, username, ...": shown right after the name.
  const usernameMode = visibility('username');
  const usernameField = usernameMode === 'hidden' ? null : (
    <div key="username" className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={`${ids}-username`}>{t.t('profile.field.username')}</label>
      <input
        id={`${ids}-username`}
        className="gh-ap-input"
        type="text"
        name="username"
        autoComplete="username"
        spellCheck={false}
        maxLength={64}
        value={username}
        readOnly={usernameMode === 'viewOnly'}
        aria-invalid={usernameError ? true : undefined}
        aria-describedby={`${ids}-username-hint${usernameError ? ` ${ids}-username-error` : ''}`}
        onChange={(event) => {
          setUsername(event.target.value);
          setUsernameError(null);
          setOutcome('none');
        }}
      />
      <p id={`${ids}-username-hint`} className="gh-ap-hint">{t.t('profile.usernameHint')}</p>
      {usernameError && <p id={`${ids}-username-error`} className="gh-ap-field-error">{usernameError}</p>}
    </div>
  );

  return (
    <section className="gh-ap-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
      <form className="gh-ap-form" noValidate onSubmit={submit} aria-busy={saving}>
        {pictureVisibility !== 'hidden' && (
          pictureVisibility === 'editable' ? (
            <FilePicker
              id={`${ids}-picture`}
              label={t.t('profile.picture.label')}
              hint={t.t('profile.picture.hint')}
              accept={PROFILE_IMAGE_TYPES.join(',')}
              preview={<Avatar name={displayName} src={image ?? user.profilePictureUrl} size="large" />}
              disabled={saving}
              error={imageError}
              inputRef={fileInputRef}
              onFile={pickImage}
            />
          ) : (
            <div className="gh-ap-field gh-ap-picture">
              <Avatar name={displayName} src={user.profilePictureUrl} size="large" />
              <p className="gh-ap-label">{t.t('profile.picture.label')}</p>
            </div>
          )
        )}
        {TEXT_FIELDS.map(({ field, label, type, autoComplete, maxLength }) => {
          const mode = visibility(field);
          if (mode === 'hidden') return field === 'name' ? usernameField : null;
          const id = `${ids}-${field}`;
          const error = fieldErrors[field];
          return (
            <Fragment key={field}>
              <div className="gh-ap-field">
                <label className="gh-ap-label" htmlFor={id}>{t.t(label)}</label>
                <input
                  id={id}
                  className="gh-ap-input"
                  type={type}
                  name={field}
                  autoComplete={autoComplete}
                  maxLength={maxLength}
                  value={draft[field]}
                  readOnly={mode === 'viewOnly'}
                  required={field === 'name'}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  onChange={(event) => edit(field, event.target.value)}
                />
                {error && <p id={`${id}-error`} className="gh-ap-field-error">{t.t(error)}</p>}
              </div>
              {field === 'name' && usernameField}
            </Fragment>
          );
        })}
        {emailVisibility !== 'hidden' && user.email !== null && (
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-email`}>{t.t('profile.field.email')}</label>
            <input id={`${ids}-email`} className="gh-ap-input" type="email" value={user.email} readOnly autoComplete="email" aria-describedby={`${ids}-email-hint`} />
            <p id={`${ids}-email-hint`} className="gh-ap-hint">{t.t('profile.emailHint')}</p>
          </div>
        )}
        {serverError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{serverError}</p>}
        <div className="gh-ap-actions">
          <button type="submit" className="gh-ap-button" disabled={saving} aria-busy={saving}>
            {saving && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('common.save')}
          </button>
          <p className="gh-ap-status" role="status">{outcome === 'unchanged' ? t.t('profile.noChanges') : ''}</p>
          <Toast message={saved ? t.t('profile.saved') : null} />
        </div>
      </form>
    </section>
  );
}
