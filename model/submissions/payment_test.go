package submissions

import (
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
)

func TestPaymentUpdateStatuses(t *testing.T) {
	for _, status := range []string{"PENDING", "PAID", "PARTIAL", "CANCELED", "canceled"} {
		var p model.Problems
		PaymentUpdateInput{PaymentStatus: status}.Validate(&p)
		if err := p.Err(); err != nil {
			t.Errorf("%s refused: %v", status, err)
		}
	}
	for _, status := range []string{"REJECTED", "CANCELLED", "SETTLED", ""} {
		var p model.Problems
		PaymentUpdateInput{PaymentStatus: status}.Validate(&p)
		err := p.Err()
		if err == nil {
			t.Fatalf("%q accepted", status)
		}
		if status == "REJECTED" && !strings.Contains(err.Error(), "NRS-PAYMENT-STATUS-REJECTED") {
			t.Errorf("REJECTED refused without the validator's reason: %v", err)
		}
	}
}
