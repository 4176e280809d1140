import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Group, GroupMember, UsersPage } from '@gatehouse/shared/wire';
import { DialogFooter } from '../dialogs/dialog-footer';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';

/** The users of a group: untick to remove, search the account's users and tick to add. */
export function MembersDialog({ group, search, save, onClose }: {
  group: Group;
  search: (filter: string) => Promise<UsersPage>;
  save: (userIds: string[]) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const toError = useErrorText();
  const [selected, setSelected] = useState<string[]>(group.users.map((u) => u.id));
  const [known, setKnown] = useState<GroupMember[]>(group.users);
  const [typed, setTyped] = useState('');
  const [searching, setSearching] = useState(true);
  const { busy, error, setError, run } = useSave();
  const ids = useId();

  // The account's users matching the search, after a pause in typing; the newest answer wins.
  useEffect(() => {
    let current = true;
    setSearching(true);
    const timer = setTimeout(() => {
      search(typed)
        .then((page) => {
          if (!current) return;
          setKnown((list) => [...list, ...page.items.filter((u) => !list.some((k) => k.id === u.id)).map((u) => ({ id: u.id, name: u.name || u.email || u.id, email: u.email }))]);
        })
        .catch((thrown: unknown) => current && setError(toError(thrown)))
        .finally(() => current && setSearching(false));
    }, typed ? 300 : 0);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [typed, search]);

  const needle = typed.trim().toLowerCase();
  const shown = known.filter((u) => selected.includes(u.id) || !needle || u.name.toLowerCase().includes(needle) || (u.email ?? '').toLowerCase().includes(needle));

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(() => save(selected));
  }

  return (
    <Modal title={t.t('groups.members.title', { name: group.name })} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-search`}>{t.t('groups.members.find')}</label>
          <input id={`${ids}-search`} className="gh-ap-input" type="search" placeholder={t.t('groups.members.placeholder')} value={typed} autoComplete="off" disabled={busy} data-autofocus onChange={(e) => setTyped(e.target.value)} />
        </div>
        <fieldset className="gh-ap-fieldset" disabled={busy} aria-busy={searching}>
          <legend className="gh-ap-label">{t.t('groups.members.legend', { count: selected.length })}</legend>
          {shown.map((member) => (
            <label key={member.id} className="gh-ap-check" htmlFor={`${ids}-${member.id}`}>
              <input id={`${ids}-${member.id}`} type="checkbox" checked={selected.includes(member.id)} onChange={(e) => setSelected(e.target.checked ? [...selected, member.id] : selected.filter((id) => id !== member.id))} />
              <span>
                {member.name}
                {member.email && member.email !== member.name && <span className="gh-ap-hint"> {member.email}</span>}
              </span>
            </label>
          ))}
          {searching && <p className="gh-ap-hint">{t.t('groups.members.searching')}</p>}
          {!searching && shown.length === 0 && <p className="gh-ap-hint">{t.t('groups.members.noneFound')}</p>}
        </fieldset>
        <DialogFooter error={error} busy={busy} label={t.t('groups.members.save')} onClose={onClose} />
      </form>
    </Modal>
  );
}
