package store

import "context"

// AnswerKeeper keeps the answer a request gives a use case's result in the
// transaction of the use case's effect: model/idempotency's claims do, for
// a request under an Idempotency-Key (idempotency.Claim.Bind puts one in
// the request's context). One may keep only which effect the result
// reports, for a transport whose answer depends on more than the result
// (idempotency.Claim.BindEffect: a GraphQL selection set); it then
// reports that it kept no answer.
type AnswerKeeper interface {
	KeepAnswer(ctx context.Context, tx *Store, result any) (bool, error)
}

type answerKeeperKey struct{}

// WithAnswerKeeper returns ctx carrying k.
func WithAnswerKeeper(ctx context.Context, k AnswerKeeper) context.Context {
	return context.WithValue(ctx, answerKeeperKey{}, k)
}

// KeepAnswer has the AnswerKeeper of ctx, if any, keep the answer for
// result in s, the transaction of the effect result reports, and reports
// whether it did. A use case whose effect must not run twice when its
// request is retried calls it last in that transaction and, when it kept
// it, answers with result as it is then: committed with the effect, the
// answer is there for a retry whatever happens to the process afterwards.
// Its error (the key's claim was taken over) fails the transaction.
func (s *Store) KeepAnswer(ctx context.Context, result any) (bool, error) {
	k, _ := ctx.Value(answerKeeperKey{}).(AnswerKeeper)
	if k == nil {
		return false, nil
	}
	return k.KeepAnswer(ctx, s, result)
}
