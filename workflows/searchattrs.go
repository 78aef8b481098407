package workflows

import (
	"context"
	"fmt"
	"slices"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// RegisterSearchAttributes adds the custom search attributes keys to the
// namespace, as `temporal operator search-attribute create` does: the
// attributes already registered with the same type are left alone, one
// registered with another type is an error. Pass the lists of every
// workflow the namespace runs (CertificationSearchAttributes, ...); a name
// given twice with one type is registered once.
func RegisterSearchAttributes(ctx context.Context, c client.Client, namespace string, keys ...temporal.SearchAttributeKey) error {
	ops := c.OperatorService()
	have, err := ops.ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return fmt.Errorf("list the search attributes of namespace %s: %w", namespace, err)
	}
	add := &operatorservice.AddSearchAttributesRequest{Namespace: namespace, SearchAttributes: map[string]enumspb.IndexedValueType{}}
	var clash []string
	for _, k := range keys {
		name, want := k.GetName(), k.GetValueType()
		got, ok := have.GetCustomAttributes()[name]
		if !ok {
			got, ok = have.GetSystemAttributes()[name]
		}
		switch {
		case ok && got != want:
			clash = append(clash, fmt.Sprintf("%s is %s, not %s", name, got, want))
		case ok:
		default:
			if prev, dup := add.SearchAttributes[name]; dup && prev != want {
				clash = append(clash, fmt.Sprintf("%s is asked as %s and %s", name, prev, want))
			}
			add.SearchAttributes[name] = want
		}
	}
	if len(clash) > 0 {
		slices.Sort(clash)
		return fmt.Errorf("search attributes of namespace %s: %s", namespace, strings.Join(clash, "; "))
	}
	if len(add.SearchAttributes) == 0 {
		return nil
	}
	if _, err := ops.AddSearchAttributes(ctx, add); err != nil {
		return fmt.Errorf("add search attributes to namespace %s: %w", namespace, err)
	}
	return nil
}
