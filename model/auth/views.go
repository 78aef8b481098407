package auth

import (
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/portal"
)

// UserView is a user as clients see it.
type UserView struct {
	ID        uuid.UUID `json:"id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
}

func userView(u *model.User) UserView {
	return UserView{ID: u.ID, Email: u.Email, CreatedAt: u.CreatedAt.UTC()}
}

// AuthPayload answers signup and login.
type AuthPayload struct {
	AccessToken   string                    `json:"access_token"`
	TokenType     string                    `json:"token_type"`
	ExpiresIn     int                       `json:"expires_in"`
	User          UserView                  `json:"user"`
	Organization  *portal.OrganizationView  `json:"organization,omitempty"`
	Organizations []portal.OrganizationView `json:"organizations,omitempty"`
}
