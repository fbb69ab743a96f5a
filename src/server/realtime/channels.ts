export const userChannel = (userId: number) => `private-App.Models.User.${userId}`;
export const roleChannel = (roleId: number) => `private-App.Models.Role.${roleId}`;
