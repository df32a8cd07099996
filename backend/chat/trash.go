package chat

// TrashDays is how long a deleted chat stays in the Trash before it is
// deleted for good.
const TrashDays = 30

// TrashMillis is TrashDays in milliseconds (the unit of Now).
const TrashMillis = int64(TrashDays) * 24 * 60 * 60 * 1000

// TrashedChat is a chat in the Trash, as the Trash view lists it.
type TrashedChat struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`
	// DeletedAt is when it was moved to the Trash; PurgeAt when it will be
	// deleted for good (DeletedAt + TrashDays), both Unix milliseconds.
	DeletedAt int64 `json:"deletedAt"`
	PurgeAt   int64 `json:"purgeAt"`
	Messages  int   `json:"messages"` // on every branch
}
