// The score sheet page's state that its modules share, in one object that each of them reads and sets:
// what other state there is belongs to one module and stays in it (the start form's choices in start.js,
// the picker's cards in picker.js, whether a sync is on its way in sync.js).

export const state = {
  /** The sheet's code (null on the start page and on a sheet kept here that the server has not got). */
  code: null,
  /** This browser's edit token (null: the sheet is read-only here; "kept" on a sheet only this phone has). */
  token: null,
  /** The sheet as last shown: the server's view, or the one scored here (offline.js). */
  sheet: null,
  /** Whether a change of ours is on its way to the server. */
  busy: false,
  /** The round being entered or edited: {round, editing, out, hands: {name: {mode, cards, points}}}. */
  form: null,
  /** A sheet kept on this phone: {id?, code?, base?, preset?, options?, scoring_url, sheet, ops, rules}. */
  local: null,
};
